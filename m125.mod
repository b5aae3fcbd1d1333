!mod$ v1 sum:e16eb3c7a08481f9
module m125
real(8)::table125(1_8:64_8)
contains
pure function scale125(x)
real(8),intent(in)::x
real(8)::scale125
end
subroutine kernel125(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
