!mod$ v1 sum:18002a5c8bb54fe6
module m18
real(8)::table18(1_8:64_8)
contains
pure function scale18(x)
real(8),intent(in)::x
real(8)::scale18
end
subroutine kernel18(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
