!mod$ v1 sum:6b36116105bd7764
module m252
real(8)::table252(1_8:64_8)
contains
pure function scale252(x)
real(8),intent(in)::x
real(8)::scale252
end
subroutine kernel252(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
