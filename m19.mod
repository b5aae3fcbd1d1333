!mod$ v1 sum:dd128777b64484c7
module m19
real(8)::table19(1_8:64_8)
contains
pure function scale19(x)
real(8),intent(in)::x
real(8)::scale19
end
subroutine kernel19(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
