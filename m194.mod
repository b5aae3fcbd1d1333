!mod$ v1 sum:4d8422ba914cc12d
module m194
real(8)::table194(1_8:64_8)
contains
pure function scale194(x)
real(8),intent(in)::x
real(8)::scale194
end
subroutine kernel194(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
