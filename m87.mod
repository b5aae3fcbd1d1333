!mod$ v1 sum:d757957d21c8b2c2
module m87
real(8)::table87(1_8:64_8)
contains
pure function scale87(x)
real(8),intent(in)::x
real(8)::scale87
end
subroutine kernel87(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
