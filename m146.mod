!mod$ v1 sum:2d3e2ed461272f20
module m146
real(8)::table146(1_8:64_8)
contains
pure function scale146(x)
real(8),intent(in)::x
real(8)::scale146
end
subroutine kernel146(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
