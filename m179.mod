!mod$ v1 sum:a79d62a34d38d456
module m179
real(8)::table179(1_8:64_8)
contains
pure function scale179(x)
real(8),intent(in)::x
real(8)::scale179
end
subroutine kernel179(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
