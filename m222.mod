!mod$ v1 sum:e5c5883c44fcb0e9
module m222
real(8)::table222(1_8:64_8)
contains
pure function scale222(x)
real(8),intent(in)::x
real(8)::scale222
end
subroutine kernel222(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
