!mod$ v1 sum:d7dcb3279e5bd79f
module m224
real(8)::table224(1_8:64_8)
contains
pure function scale224(x)
real(8),intent(in)::x
real(8)::scale224
end
subroutine kernel224(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
