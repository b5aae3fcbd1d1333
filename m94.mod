!mod$ v1 sum:3864c4c6fcf74a42
module m94
real(8)::table94(1_8:64_8)
contains
pure function scale94(x)
real(8),intent(in)::x
real(8)::scale94
end
subroutine kernel94(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
