!mod$ v1 sum:bca9266f12343481
module m84
real(8)::table84(1_8:64_8)
contains
pure function scale84(x)
real(8),intent(in)::x
real(8)::scale84
end
subroutine kernel84(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
