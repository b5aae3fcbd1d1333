!mod$ v1 sum:53d4c1f5621bf1fb
module m33
real(8)::table33(1_8:64_8)
contains
pure function scale33(x)
real(8),intent(in)::x
real(8)::scale33
end
subroutine kernel33(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
