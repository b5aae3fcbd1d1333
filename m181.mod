!mod$ v1 sum:7521a1d41fab85f3
module m181
real(8)::table181(1_8:64_8)
contains
pure function scale181(x)
real(8),intent(in)::x
real(8)::scale181
end
subroutine kernel181(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
