!mod$ v1 sum:2b24280c2980c2f7
module m134
real(8)::table134(1_8:64_8)
contains
pure function scale134(x)
real(8),intent(in)::x
real(8)::scale134
end
subroutine kernel134(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
