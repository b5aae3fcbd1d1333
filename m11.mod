!mod$ v1 sum:282111479202289f
module m11
real(8)::table11(1_8:64_8)
contains
pure function scale11(x)
real(8),intent(in)::x
real(8)::scale11
end
subroutine kernel11(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
