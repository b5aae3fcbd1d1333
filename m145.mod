!mod$ v1 sum:9c442c626b35f3e3
module m145
real(8)::table145(1_8:64_8)
contains
pure function scale145(x)
real(8),intent(in)::x
real(8)::scale145
end
subroutine kernel145(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
