!mod$ v1 sum:5c7c4b382e49e95f
module m170
real(8)::table170(1_8:64_8)
contains
pure function scale170(x)
real(8),intent(in)::x
real(8)::scale170
end
subroutine kernel170(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
