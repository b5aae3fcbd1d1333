!mod$ v1 sum:6a41acbfc473a5ba
module m157
real(8)::table157(1_8:64_8)
contains
pure function scale157(x)
real(8),intent(in)::x
real(8)::scale157
end
subroutine kernel157(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
