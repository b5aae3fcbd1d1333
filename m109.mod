!mod$ v1 sum:1ced29f8e6edecc3
module m109
real(8)::table109(1_8:64_8)
contains
pure function scale109(x)
real(8),intent(in)::x
real(8)::scale109
end
subroutine kernel109(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
