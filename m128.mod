!mod$ v1 sum:1a4a55167703303c
module m128
real(8)::table128(1_8:64_8)
contains
pure function scale128(x)
real(8),intent(in)::x
real(8)::scale128
end
subroutine kernel128(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
