!mod$ v1 sum:314fc981c0c56aef
module m149
real(8)::table149(1_8:64_8)
contains
pure function scale149(x)
real(8),intent(in)::x
real(8)::scale149
end
subroutine kernel149(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
