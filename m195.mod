!mod$ v1 sum:822cbb84ba76dc84
module m195
real(8)::table195(1_8:64_8)
contains
pure function scale195(x)
real(8),intent(in)::x
real(8)::scale195
end
subroutine kernel195(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
