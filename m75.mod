!mod$ v1 sum:63e5048fdacd6e11
module m75
real(8)::table75(1_8:64_8)
contains
pure function scale75(x)
real(8),intent(in)::x
real(8)::scale75
end
subroutine kernel75(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
