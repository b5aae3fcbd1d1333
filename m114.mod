!mod$ v1 sum:b07050d6f194c6a5
module m114
real(8)::table114(1_8:64_8)
contains
pure function scale114(x)
real(8),intent(in)::x
real(8)::scale114
end
subroutine kernel114(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
