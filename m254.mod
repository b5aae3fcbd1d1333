!mod$ v1 sum:b8300beacd3e1022
module m254
real(8)::table254(1_8:64_8)
contains
pure function scale254(x)
real(8),intent(in)::x
real(8)::scale254
end
subroutine kernel254(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
