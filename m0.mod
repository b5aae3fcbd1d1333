!mod$ v1 sum:dde0500b8210b44b
module m0
real(8)::table0(1_8:64_8)
contains
pure function scale0(x)
real(8),intent(in)::x
real(8)::scale0
end
subroutine kernel0(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
