!mod$ v1 sum:083deed4744a9193
module m86
real(8)::table86(1_8:64_8)
contains
pure function scale86(x)
real(8),intent(in)::x
real(8)::scale86
end
subroutine kernel86(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
