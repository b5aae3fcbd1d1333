!mod$ v1 sum:0dbb5fad23b701f4
module m12
real(8)::table12(1_8:64_8)
contains
pure function scale12(x)
real(8),intent(in)::x
real(8)::scale12
end
subroutine kernel12(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
