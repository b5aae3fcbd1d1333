!mod$ v1 sum:f8899018101532e3
module m192
real(8)::table192(1_8:64_8)
contains
pure function scale192(x)
real(8),intent(in)::x
real(8)::scale192
end
subroutine kernel192(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
