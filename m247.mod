!mod$ v1 sum:05d10bf1329a4152
module m247
real(8)::table247(1_8:64_8)
contains
pure function scale247(x)
real(8),intent(in)::x
real(8)::scale247
end
subroutine kernel247(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
