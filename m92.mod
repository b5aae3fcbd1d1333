!mod$ v1 sum:6fa064f08efb0c1c
module m92
real(8)::table92(1_8:64_8)
contains
pure function scale92(x)
real(8),intent(in)::x
real(8)::scale92
end
subroutine kernel92(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
