!mod$ v1 sum:7d6e165dc71540fa
module m283
real(8)::table283(1_8:64_8)
contains
pure function scale283(x)
real(8),intent(in)::x
real(8)::scale283
end
subroutine kernel283(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
