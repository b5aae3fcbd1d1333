!mod$ v1 sum:ad108f7bebf4ea40
module m278
real(8)::table278(1_8:64_8)
contains
pure function scale278(x)
real(8),intent(in)::x
real(8)::scale278
end
subroutine kernel278(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
