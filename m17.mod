!mod$ v1 sum:62669083c2b3fc11
module m17
real(8)::table17(1_8:64_8)
contains
pure function scale17(x)
real(8),intent(in)::x
real(8)::scale17
end
subroutine kernel17(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
