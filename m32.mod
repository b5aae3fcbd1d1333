!mod$ v1 sum:a2128c60178babb2
module m32
real(8)::table32(1_8:64_8)
contains
pure function scale32(x)
real(8),intent(in)::x
real(8)::scale32
end
subroutine kernel32(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
