!mod$ v1 sum:e8226fea681de4e1
module m176
real(8)::table176(1_8:64_8)
contains
pure function scale176(x)
real(8),intent(in)::x
real(8)::scale176
end
subroutine kernel176(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
