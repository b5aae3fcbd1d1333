!mod$ v1 sum:c8c9534f3a4c910d
module m150
real(8)::table150(1_8:64_8)
contains
pure function scale150(x)
real(8),intent(in)::x
real(8)::scale150
end
subroutine kernel150(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
