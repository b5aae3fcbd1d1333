!mod$ v1 sum:f5aa181e1d6d0de0
module m74
real(8)::table74(1_8:64_8)
contains
pure function scale74(x)
real(8),intent(in)::x
real(8)::scale74
end
subroutine kernel74(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
