!mod$ v1 sum:e04b571673b7e2f8
module m182
real(8)::table182(1_8:64_8)
contains
pure function scale182(x)
real(8),intent(in)::x
real(8)::scale182
end
subroutine kernel182(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
