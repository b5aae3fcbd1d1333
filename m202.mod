!mod$ v1 sum:38a2afc7be350293
module m202
real(8)::table202(1_8:64_8)
contains
pure function scale202(x)
real(8),intent(in)::x
real(8)::scale202
end
subroutine kernel202(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
