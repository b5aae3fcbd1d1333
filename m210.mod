!mod$ v1 sum:1e7f0613deda3dd2
module m210
real(8)::table210(1_8:64_8)
contains
pure function scale210(x)
real(8),intent(in)::x
real(8)::scale210
end
subroutine kernel210(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
