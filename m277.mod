!mod$ v1 sum:ad76b590471d0977
module m277
real(8)::table277(1_8:64_8)
contains
pure function scale277(x)
real(8),intent(in)::x
real(8)::scale277
end
subroutine kernel277(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
