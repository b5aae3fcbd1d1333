!mod$ v1 sum:c73d5a5343ec925a
module m1
real(8)::table1(1_8:64_8)
contains
pure function scale1(x)
real(8),intent(in)::x
real(8)::scale1
end
subroutine kernel1(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
