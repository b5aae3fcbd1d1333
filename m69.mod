!mod$ v1 sum:b3bc1c666e4ee25a
module m69
real(8)::table69(1_8:64_8)
contains
pure function scale69(x)
real(8),intent(in)::x
real(8)::scale69
end
subroutine kernel69(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
