!mod$ v1 sum:7ec963d7969055bd
module m13
real(8)::table13(1_8:64_8)
contains
pure function scale13(x)
real(8),intent(in)::x
real(8)::scale13
end
subroutine kernel13(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
