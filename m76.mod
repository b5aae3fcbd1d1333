!mod$ v1 sum:503ac77ad6da8c1a
module m76
real(8)::table76(1_8:64_8)
contains
pure function scale76(x)
real(8),intent(in)::x
real(8)::scale76
end
subroutine kernel76(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
