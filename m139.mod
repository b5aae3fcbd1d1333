!mod$ v1 sum:d46decfa0a0ee1ba
module m139
real(8)::table139(1_8:64_8)
contains
pure function scale139(x)
real(8),intent(in)::x
real(8)::scale139
end
subroutine kernel139(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
