!mod$ v1 sum:8b7fb2bad075557d
module m136
real(8)::table136(1_8:64_8)
contains
pure function scale136(x)
real(8),intent(in)::x
real(8)::scale136
end
subroutine kernel136(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
