!mod$ v1 sum:30f72199074dc43e
module m104
real(8)::table104(1_8:64_8)
contains
pure function scale104(x)
real(8),intent(in)::x
real(8)::scale104
end
subroutine kernel104(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
