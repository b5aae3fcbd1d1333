!mod$ v1 sum:69a8738e70da313e
module m197
real(8)::table197(1_8:64_8)
contains
pure function scale197(x)
real(8),intent(in)::x
real(8)::scale197
end
subroutine kernel197(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
