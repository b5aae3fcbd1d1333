!mod$ v1 sum:4b69bf318a9257df
module m64
real(8)::table64(1_8:64_8)
contains
pure function scale64(x)
real(8),intent(in)::x
real(8)::scale64
end
subroutine kernel64(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
