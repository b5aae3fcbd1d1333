!mod$ v1 sum:2be950d8ff8b563a
module m43
real(8)::table43(1_8:64_8)
contains
pure function scale43(x)
real(8),intent(in)::x
real(8)::scale43
end
subroutine kernel43(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
