!mod$ v1 sum:0867100d90e588ee
module m54
real(8)::table54(1_8:64_8)
contains
pure function scale54(x)
real(8),intent(in)::x
real(8)::scale54
end
subroutine kernel54(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
