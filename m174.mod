!mod$ v1 sum:a659156a3df9ee2b
module m174
real(8)::table174(1_8:64_8)
contains
pure function scale174(x)
real(8),intent(in)::x
real(8)::scale174
end
subroutine kernel174(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
