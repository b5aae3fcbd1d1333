!mod$ v1 sum:4fa6b8a5c6051766
module m166
real(8)::table166(1_8:64_8)
contains
pure function scale166(x)
real(8),intent(in)::x
real(8)::scale166
end
subroutine kernel166(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
