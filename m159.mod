!mod$ v1 sum:4720270aaba430e4
module m159
real(8)::table159(1_8:64_8)
contains
pure function scale159(x)
real(8),intent(in)::x
real(8)::scale159
end
subroutine kernel159(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
