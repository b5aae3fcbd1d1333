!mod$ v1 sum:2c032b1c239d8fb0
module m223
real(8)::table223(1_8:64_8)
contains
pure function scale223(x)
real(8),intent(in)::x
real(8)::scale223
end
subroutine kernel223(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
