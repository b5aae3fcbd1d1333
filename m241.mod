!mod$ v1 sum:d072674b511c82ac
module m241
real(8)::table241(1_8:64_8)
contains
pure function scale241(x)
real(8),intent(in)::x
real(8)::scale241
end
subroutine kernel241(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
