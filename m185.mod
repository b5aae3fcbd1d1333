!mod$ v1 sum:3c5f8064289bc067
module m185
real(8)::table185(1_8:64_8)
contains
pure function scale185(x)
real(8),intent(in)::x
real(8)::scale185
end
subroutine kernel185(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
