!mod$ v1 sum:d8e424fe8a52dd20
module m16
real(8)::table16(1_8:64_8)
contains
pure function scale16(x)
real(8),intent(in)::x
real(8)::scale16
end
subroutine kernel16(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
