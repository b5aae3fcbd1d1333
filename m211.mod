!mod$ v1 sum:266e5eadfdc18623
module m211
real(8)::table211(1_8:64_8)
contains
pure function scale211(x)
real(8),intent(in)::x
real(8)::scale211
end
subroutine kernel211(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
