!mod$ v1 sum:3bdb286ffd0a0060
module m102
real(8)::table102(1_8:64_8)
contains
pure function scale102(x)
real(8),intent(in)::x
real(8)::scale102
end
subroutine kernel102(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
