!mod$ v1 sum:de564c85b8c9ec74
module m274
real(8)::table274(1_8:64_8)
contains
pure function scale274(x)
real(8),intent(in)::x
real(8)::scale274
end
subroutine kernel274(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
