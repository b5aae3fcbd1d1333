!mod$ v1 sum:d1c039e2f34a3de8
module m96
real(8)::table96(1_8:64_8)
contains
pure function scale96(x)
real(8),intent(in)::x
real(8)::scale96
end
subroutine kernel96(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
