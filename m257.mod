!mod$ v1 sum:91685398efc68ab1
module m257
real(8)::table257(1_8:64_8)
contains
pure function scale257(x)
real(8),intent(in)::x
real(8)::scale257
end
subroutine kernel257(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
