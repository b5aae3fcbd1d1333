!mod$ v1 sum:3826d20a3befc103
module m77
real(8)::table77(1_8:64_8)
contains
pure function scale77(x)
real(8),intent(in)::x
real(8)::scale77
end
subroutine kernel77(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
