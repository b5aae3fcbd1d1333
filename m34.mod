!mod$ v1 sum:c6d22da9d77391ac
module m34
real(8)::table34(1_8:64_8)
contains
pure function scale34(x)
real(8),intent(in)::x
real(8)::scale34
end
subroutine kernel34(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
