!mod$ v1 sum:1a7d1abad95170a0
module m111
real(8)::table111(1_8:64_8)
contains
pure function scale111(x)
real(8),intent(in)::x
real(8)::scale111
end
subroutine kernel111(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
