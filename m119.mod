!mod$ v1 sum:60ee0910a7da1b88
module m119
real(8)::table119(1_8:64_8)
contains
pure function scale119(x)
real(8),intent(in)::x
real(8)::scale119
end
subroutine kernel119(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
