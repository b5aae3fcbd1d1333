!mod$ v1 sum:64d32a7436f46661
module m169
real(8)::table169(1_8:64_8)
contains
pure function scale169(x)
real(8),intent(in)::x
real(8)::scale169
end
subroutine kernel169(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
