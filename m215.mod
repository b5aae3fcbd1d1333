!mod$ v1 sum:ddf08d92e1de0257
module m215
real(8)::table215(1_8:64_8)
contains
pure function scale215(x)
real(8),intent(in)::x
real(8)::scale215
end
subroutine kernel215(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
