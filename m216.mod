!mod$ v1 sum:6214849929830af4
module m216
real(8)::table216(1_8:64_8)
contains
pure function scale216(x)
real(8),intent(in)::x
real(8)::scale216
end
subroutine kernel216(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
