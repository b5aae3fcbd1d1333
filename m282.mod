!mod$ v1 sum:8ef3db10bfc7e43b
module m282
real(8)::table282(1_8:64_8)
contains
pure function scale282(x)
real(8),intent(in)::x
real(8)::scale282
end
subroutine kernel282(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
