!mod$ v1 sum:87b27f0bf582d2ae
module m10
real(8)::table10(1_8:64_8)
contains
pure function scale10(x)
real(8),intent(in)::x
real(8)::scale10
end
subroutine kernel10(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
