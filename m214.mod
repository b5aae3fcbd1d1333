!mod$ v1 sum:7a8d2bbfbcde131e
module m214
real(8)::table214(1_8:64_8)
contains
pure function scale214(x)
real(8),intent(in)::x
real(8)::scale214
end
subroutine kernel214(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
