!mod$ v1 sum:26b5f677003abaf3
module m228
real(8)::table228(1_8:64_8)
contains
pure function scale228(x)
real(8),intent(in)::x
real(8)::scale228
end
subroutine kernel228(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
