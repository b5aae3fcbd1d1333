!mod$ v1 sum:3149d4d354b594d3
module m156
real(8)::table156(1_8:64_8)
contains
pure function scale156(x)
real(8),intent(in)::x
real(8)::scale156
end
subroutine kernel156(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
