!mod$ v1 sum:70276a7672047c09
module m97
real(8)::table97(1_8:64_8)
contains
pure function scale97(x)
real(8),intent(in)::x
real(8)::scale97
end
subroutine kernel97(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
