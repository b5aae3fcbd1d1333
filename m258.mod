!mod$ v1 sum:4089e0abfd490f26
module m258
real(8)::table258(1_8:64_8)
contains
pure function scale258(x)
real(8),intent(in)::x
real(8)::scale258
end
subroutine kernel258(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
