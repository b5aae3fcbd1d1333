!mod$ v1 sum:78685c353eb18638
module m63
real(8)::table63(1_8:64_8)
contains
pure function scale63(x)
real(8),intent(in)::x
real(8)::scale63
end
subroutine kernel63(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
