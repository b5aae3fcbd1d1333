!mod$ v1 sum:8752b3cf7f7e377e
module m98
real(8)::table98(1_8:64_8)
contains
pure function scale98(x)
real(8),intent(in)::x
real(8)::scale98
end
subroutine kernel98(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
