!mod$ v1 sum:75fc68912e9e8cc7
module m206
real(8)::table206(1_8:64_8)
contains
pure function scale206(x)
real(8),intent(in)::x
real(8)::scale206
end
subroutine kernel206(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
