!mod$ v1 sum:1c98e5d9eeb57a87
module m233
real(8)::table233(1_8:64_8)
contains
pure function scale233(x)
real(8),intent(in)::x
real(8)::scale233
end
subroutine kernel233(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
