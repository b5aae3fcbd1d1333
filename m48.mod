!mod$ v1 sum:7184ac0e1ca80a51
module m48
real(8)::table48(1_8:64_8)
contains
pure function scale48(x)
real(8),intent(in)::x
real(8)::scale48
end
subroutine kernel48(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
