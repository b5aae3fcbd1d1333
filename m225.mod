!mod$ v1 sum:62b5324c6c584fbe
module m225
real(8)::table225(1_8:64_8)
contains
pure function scale225(x)
real(8),intent(in)::x
real(8)::scale225
end
subroutine kernel225(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
