!mod$ v1 sum:0f28b14a62e68196
module m90
real(8)::table90(1_8:64_8)
contains
pure function scale90(x)
real(8),intent(in)::x
real(8)::scale90
end
subroutine kernel90(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
