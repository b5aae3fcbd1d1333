!mod$ v1 sum:17faf347b6b51360
module m38
real(8)::table38(1_8:64_8)
contains
pure function scale38(x)
real(8),intent(in)::x
real(8)::scale38
end
subroutine kernel38(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
