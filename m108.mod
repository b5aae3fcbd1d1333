!mod$ v1 sum:5d88f83b2cc13202
module m108
real(8)::table108(1_8:64_8)
contains
pure function scale108(x)
real(8),intent(in)::x
real(8)::scale108
end
subroutine kernel108(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
