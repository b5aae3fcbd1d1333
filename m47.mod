!mod$ v1 sum:2a9e4277f602b6e6
module m47
real(8)::table47(1_8:64_8)
contains
pure function scale47(x)
real(8),intent(in)::x
real(8)::scale47
end
subroutine kernel47(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
