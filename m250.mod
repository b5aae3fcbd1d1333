!mod$ v1 sum:e5b0d52b2597f8ee
module m250
real(8)::table250(1_8:64_8)
contains
pure function scale250(x)
real(8),intent(in)::x
real(8)::scale250
end
subroutine kernel250(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
