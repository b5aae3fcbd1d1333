!mod$ v1 sum:7bf2961726aed018
module m245
real(8)::table245(1_8:64_8)
contains
pure function scale245(x)
real(8),intent(in)::x
real(8)::scale245
end
subroutine kernel245(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
