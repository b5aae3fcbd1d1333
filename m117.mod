!mod$ v1 sum:d24a7d19ca214d66
module m117
real(8)::table117(1_8:64_8)
contains
pure function scale117(x)
real(8),intent(in)::x
real(8)::scale117
end
subroutine kernel117(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
