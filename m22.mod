!mod$ v1 sum:d41049f0a66f85bd
module m22
real(8)::table22(1_8:64_8)
contains
pure function scale22(x)
real(8),intent(in)::x
real(8)::scale22
end
subroutine kernel22(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
