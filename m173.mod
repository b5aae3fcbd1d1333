!mod$ v1 sum:390aedeed00a9684
module m173
real(8)::table173(1_8:64_8)
contains
pure function scale173(x)
real(8),intent(in)::x
real(8)::scale173
end
subroutine kernel173(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
