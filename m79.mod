!mod$ v1 sum:123602fcef1d9035
module m79
real(8)::table79(1_8:64_8)
contains
pure function scale79(x)
real(8),intent(in)::x
real(8)::scale79
end
subroutine kernel79(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
