!mod$ v1 sum:5482494794863006
module m232
real(8)::table232(1_8:64_8)
contains
pure function scale232(x)
real(8),intent(in)::x
real(8)::scale232
end
subroutine kernel232(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
