!mod$ v1 sum:36fa42a9f8876532
module m131
real(8)::table131(1_8:64_8)
contains
pure function scale131(x)
real(8),intent(in)::x
real(8)::scale131
end
subroutine kernel131(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
