!mod$ v1 sum:7e768b6ed1928fc8
module m85
real(8)::table85(1_8:64_8)
contains
pure function scale85(x)
real(8),intent(in)::x
real(8)::scale85
end
subroutine kernel85(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
