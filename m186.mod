!mod$ v1 sum:6997406aa8474cbc
module m186
real(8)::table186(1_8:64_8)
contains
pure function scale186(x)
real(8),intent(in)::x
real(8)::scale186
end
subroutine kernel186(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
