!mod$ v1 sum:d4546503866aef94
module m249
real(8)::table249(1_8:64_8)
contains
pure function scale249(x)
real(8),intent(in)::x
real(8)::scale249
end
subroutine kernel249(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
