!mod$ v1 sum:abb91b3649fef688
module m160
real(8)::table160(1_8:64_8)
contains
pure function scale160(x)
real(8),intent(in)::x
real(8)::scale160
end
subroutine kernel160(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
