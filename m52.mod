!mod$ v1 sum:6ee0ec016bf39fc0
module m52
real(8)::table52(1_8:64_8)
contains
pure function scale52(x)
real(8),intent(in)::x
real(8)::scale52
end
subroutine kernel52(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
