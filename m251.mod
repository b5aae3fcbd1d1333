!mod$ v1 sum:716291db4d5589ff
module m251
real(8)::table251(1_8:64_8)
contains
pure function scale251(x)
real(8),intent(in)::x
real(8)::scale251
end
subroutine kernel251(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
