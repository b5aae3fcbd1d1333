!mod$ v1 sum:336c61b3ad4953ba
module m144
real(8)::table144(1_8:64_8)
contains
pure function scale144(x)
real(8),intent(in)::x
real(8)::scale144
end
subroutine kernel144(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
