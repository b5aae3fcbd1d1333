!mod$ v1 sum:ca32dee7c91cf200
module m155
real(8)::table155(1_8:64_8)
contains
pure function scale155(x)
real(8),intent(in)::x
real(8)::scale155
end
subroutine kernel155(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
