!mod$ v1 sum:ceade13d9de76ef6
module m153
real(8)::table153(1_8:64_8)
contains
pure function scale153(x)
real(8),intent(in)::x
real(8)::scale153
end
subroutine kernel153(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
