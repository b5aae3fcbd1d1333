!mod$ v1 sum:015c5703bfc589aa
module m126
real(8)::table126(1_8:64_8)
contains
pure function scale126(x)
real(8),intent(in)::x
real(8)::scale126
end
subroutine kernel126(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
