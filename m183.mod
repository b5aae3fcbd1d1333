!mod$ v1 sum:286afbeb87668461
module m183
real(8)::table183(1_8:64_8)
contains
pure function scale183(x)
real(8),intent(in)::x
real(8)::scale183
end
subroutine kernel183(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
