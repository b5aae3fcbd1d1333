!mod$ v1 sum:54d7e3eb22466a38
module m212
real(8)::table212(1_8:64_8)
contains
pure function scale212(x)
real(8),intent(in)::x
real(8)::scale212
end
subroutine kernel212(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
