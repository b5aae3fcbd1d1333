!mod$ v1 sum:a6c5dbf3bb89093e
module m5
real(8)::table5(1_8:64_8)
contains
pure function scale5(x)
real(8),intent(in)::x
real(8)::scale5
end
subroutine kernel5(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
