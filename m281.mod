!mod$ v1 sum:218b6c1eaa1076e0
module m281
real(8)::table281(1_8:64_8)
contains
pure function scale281(x)
real(8),intent(in)::x
real(8)::scale281
end
subroutine kernel281(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
