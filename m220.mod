!mod$ v1 sum:84a6e967a4b176eb
module m220
real(8)::table220(1_8:64_8)
contains
pure function scale220(x)
real(8),intent(in)::x
real(8)::scale220
end
subroutine kernel220(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
