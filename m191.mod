!mod$ v1 sum:490387ba8ef9da78
module m191
real(8)::table191(1_8:64_8)
contains
pure function scale191(x)
real(8),intent(in)::x
real(8)::scale191
end
subroutine kernel191(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
