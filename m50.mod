!mod$ v1 sum:0491d48b2175cf7a
module m50
real(8)::table50(1_8:64_8)
contains
pure function scale50(x)
real(8),intent(in)::x
real(8)::scale50
end
subroutine kernel50(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
