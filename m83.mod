!mod$ v1 sum:d23599525be204ae
module m83
real(8)::table83(1_8:64_8)
contains
pure function scale83(x)
real(8),intent(in)::x
real(8)::scale83
end
subroutine kernel83(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
