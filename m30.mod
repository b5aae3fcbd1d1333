!mod$ v1 sum:43c94e6d0afd0d18
module m30
real(8)::table30(1_8:64_8)
contains
pure function scale30(x)
real(8),intent(in)::x
real(8)::scale30
end
subroutine kernel30(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
