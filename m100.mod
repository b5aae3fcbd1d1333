!mod$ v1 sum:d3b328871f7cd5da
module m100
real(8)::table100(1_8:64_8)
contains
pure function scale100(x)
real(8),intent(in)::x
real(8)::scale100
end
subroutine kernel100(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
