!mod$ v1 sum:0a6601be4100207f
module m123
real(8)::table123(1_8:64_8)
contains
pure function scale123(x)
real(8),intent(in)::x
real(8)::scale123
end
subroutine kernel123(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
