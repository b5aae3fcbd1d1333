!mod$ v1 sum:f51ec6ab86be957f
module m268
real(8)::table268(1_8:64_8)
contains
pure function scale268(x)
real(8),intent(in)::x
real(8)::scale268
end
subroutine kernel268(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
