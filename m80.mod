!mod$ v1 sum:e78413eab128fdb5
module m80
real(8)::table80(1_8:64_8)
contains
pure function scale80(x)
real(8),intent(in)::x
real(8)::scale80
end
subroutine kernel80(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
