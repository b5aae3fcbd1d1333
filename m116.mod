!mod$ v1 sum:0b0b3866cd0a22df
module m116
real(8)::table116(1_8:64_8)
contains
pure function scale116(x)
real(8),intent(in)::x
real(8)::scale116
end
subroutine kernel116(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
