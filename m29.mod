!mod$ v1 sum:8c533b4260a6d866
module m29
real(8)::table29(1_8:64_8)
contains
pure function scale29(x)
real(8),intent(in)::x
real(8)::scale29
end
subroutine kernel29(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
