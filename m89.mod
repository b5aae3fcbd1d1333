!mod$ v1 sum:73462a1b2bc84efc
module m89
real(8)::table89(1_8:64_8)
contains
pure function scale89(x)
real(8),intent(in)::x
real(8)::scale89
end
subroutine kernel89(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
