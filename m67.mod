!mod$ v1 sum:dad2ec5daac9aab4
module m67
real(8)::table67(1_8:64_8)
contains
pure function scale67(x)
real(8),intent(in)::x
real(8)::scale67
end
subroutine kernel67(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
