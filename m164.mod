!mod$ v1 sum:385191d6298f742c
module m164
real(8)::table164(1_8:64_8)
contains
pure function scale164(x)
real(8),intent(in)::x
real(8)::scale164
end
subroutine kernel164(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
