!mod$ v1 sum:63fe9c23f95267d5
module m143
real(8)::table143(1_8:64_8)
contains
pure function scale143(x)
real(8),intent(in)::x
real(8)::scale143
end
subroutine kernel143(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
