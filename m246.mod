!mod$ v1 sum:0cd181937a777f1b
module m246
real(8)::table246(1_8:64_8)
contains
pure function scale246(x)
real(8),intent(in)::x
real(8)::scale246
end
subroutine kernel246(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
