!mod$ v1 sum:46b9e6d16c12f864
module m142
real(8)::table142(1_8:64_8)
contains
pure function scale142(x)
real(8),intent(in)::x
real(8)::scale142
end
subroutine kernel142(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
