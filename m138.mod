!mod$ v1 sum:c608d1e57fb489fb
module m138
real(8)::table138(1_8:64_8)
contains
pure function scale138(x)
real(8),intent(in)::x
real(8)::scale138
end
subroutine kernel138(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
