!mod$ v1 sum:d6be8c493f90bd11
module m53
real(8)::table53(1_8:64_8)
contains
pure function scale53(x)
real(8),intent(in)::x
real(8)::scale53
end
subroutine kernel53(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
