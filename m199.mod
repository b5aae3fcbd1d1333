!mod$ v1 sum:13acd5f813adf930
module m199
real(8)::table199(1_8:64_8)
contains
pure function scale199(x)
real(8),intent(in)::x
real(8)::scale199
end
subroutine kernel199(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
