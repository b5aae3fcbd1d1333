!mod$ v1 sum:751e02039688cb24
module m81
real(8)::table81(1_8:64_8)
contains
pure function scale81(x)
real(8),intent(in)::x
real(8)::scale81
end
subroutine kernel81(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
