!mod$ v1 sum:cccbf105208e7cbd
module m88
real(8)::table88(1_8:64_8)
contains
pure function scale88(x)
real(8),intent(in)::x
real(8)::scale88
end
subroutine kernel88(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
