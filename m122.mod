!mod$ v1 sum:c17125282ec8efee
module m122
real(8)::table122(1_8:64_8)
contains
pure function scale122(x)
real(8),intent(in)::x
real(8)::scale122
end
subroutine kernel122(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
