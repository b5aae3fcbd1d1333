!mod$ v1 sum:b1479eda662593ab
module m163
real(8)::table163(1_8:64_8)
contains
pure function scale163(x)
real(8),intent(in)::x
real(8)::scale163
end
subroutine kernel163(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
