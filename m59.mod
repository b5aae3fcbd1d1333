!mod$ v1 sum:dc9e6af78412cc5b
module m59
real(8)::table59(1_8:64_8)
contains
pure function scale59(x)
real(8),intent(in)::x
real(8)::scale59
end
subroutine kernel59(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
