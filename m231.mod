!mod$ v1 sum:5a59dc3e8a71640d
module m231
real(8)::table231(1_8:64_8)
contains
pure function scale231(x)
real(8),intent(in)::x
real(8)::scale231
end
subroutine kernel231(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
