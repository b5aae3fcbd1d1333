!mod$ v1 sum:b47e6939066ac2b6
module m184
real(8)::table184(1_8:64_8)
contains
pure function scale184(x)
real(8),intent(in)::x
real(8)::scale184
end
subroutine kernel184(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
