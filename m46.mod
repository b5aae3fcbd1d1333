!mod$ v1 sum:51d513d5358c53bf
module m46
real(8)::table46(1_8:64_8)
contains
pure function scale46(x)
real(8),intent(in)::x
real(8)::scale46
end
subroutine kernel46(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
