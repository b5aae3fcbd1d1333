!mod$ v1 sum:fa4bc14bb0d12e51
module m266
real(8)::table266(1_8:64_8)
contains
pure function scale266(x)
real(8),intent(in)::x
real(8)::scale266
end
subroutine kernel266(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
