!mod$ v1 sum:893dc1f1c13315d2
module m58
real(8)::table58(1_8:64_8)
contains
pure function scale58(x)
real(8),intent(in)::x
real(8)::scale58
end
subroutine kernel58(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
