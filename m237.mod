!mod$ v1 sum:21513d21458b4f03
module m237
real(8)::table237(1_8:64_8)
contains
pure function scale237(x)
real(8),intent(in)::x
real(8)::scale237
end
subroutine kernel237(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
