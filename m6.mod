!mod$ v1 sum:f9b8ab44f68094ad
module m6
real(8)::table6(1_8:64_8)
contains
pure function scale6(x)
real(8),intent(in)::x
real(8)::scale6
end
subroutine kernel6(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
