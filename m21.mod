!mod$ v1 sum:7cfe2d011693deae
module m21
real(8)::table21(1_8:64_8)
contains
pure function scale21(x)
real(8),intent(in)::x
real(8)::scale21
end
subroutine kernel21(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
