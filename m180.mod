!mod$ v1 sum:83fcf83d2cec3432
module m180
real(8)::table180(1_8:64_8)
contains
pure function scale180(x)
real(8),intent(in)::x
real(8)::scale180
end
subroutine kernel180(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
