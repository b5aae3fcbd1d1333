!mod$ v1 sum:56ca255e04648fb3
module m8
real(8)::table8(1_8:64_8)
contains
pure function scale8(x)
real(8),intent(in)::x
real(8)::scale8
end
subroutine kernel8(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
