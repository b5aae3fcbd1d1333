!mod$ v1 sum:7a1f9eb9de66886b
module m24
real(8)::table24(1_8:64_8)
contains
pure function scale24(x)
real(8),intent(in)::x
real(8)::scale24
end
subroutine kernel24(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
