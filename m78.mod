!mod$ v1 sum:1f12ac7c9e45756c
module m78
real(8)::table78(1_8:64_8)
contains
pure function scale78(x)
real(8),intent(in)::x
real(8)::scale78
end
subroutine kernel78(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
