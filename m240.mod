!mod$ v1 sum:17bb82b7bb54ccdd
module m240
real(8)::table240(1_8:64_8)
contains
pure function scale240(x)
real(8),intent(in)::x
real(8)::scale240
end
subroutine kernel240(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
