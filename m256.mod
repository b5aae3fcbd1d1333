!mod$ v1 sum:0f39ea00b4d43ec8
module m256
real(8)::table256(1_8:64_8)
contains
pure function scale256(x)
real(8),intent(in)::x
real(8)::scale256
end
subroutine kernel256(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
