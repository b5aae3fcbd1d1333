!mod$ v1 sum:b1a3532b4e990475
module m158
real(8)::table158(1_8:64_8)
contains
pure function scale158(x)
real(8),intent(in)::x
real(8)::scale158
end
subroutine kernel158(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
