!mod$ v1 sum:4fa0c126845f37ae
module m261
real(8)::table261(1_8:64_8)
contains
pure function scale261(x)
real(8),intent(in)::x
real(8)::scale261
end
subroutine kernel261(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
