!mod$ v1 sum:fb2b0963b617d9e2
module m175
real(8)::table175(1_8:64_8)
contains
pure function scale175(x)
real(8),intent(in)::x
real(8)::scale175
end
subroutine kernel175(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
