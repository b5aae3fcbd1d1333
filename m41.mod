!mod$ v1 sum:a6fce28f494f9c90
module m41
real(8)::table41(1_8:64_8)
contains
pure function scale41(x)
real(8),intent(in)::x
real(8)::scale41
end
subroutine kernel41(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
