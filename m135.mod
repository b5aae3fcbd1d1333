!mod$ v1 sum:1c25a9c4df15abde
module m135
real(8)::table135(1_8:64_8)
contains
pure function scale135(x)
real(8),intent(in)::x
real(8)::scale135
end
subroutine kernel135(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
