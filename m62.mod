!mod$ v1 sum:46f844f1ed7a97b9
module m62
real(8)::table62(1_8:64_8)
contains
pure function scale62(x)
real(8),intent(in)::x
real(8)::scale62
end
subroutine kernel62(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
