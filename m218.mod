!mod$ v1 sum:286821f6d6ac28ea
module m218
real(8)::table218(1_8:64_8)
contains
pure function scale218(x)
real(8),intent(in)::x
real(8)::scale218
end
subroutine kernel218(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
