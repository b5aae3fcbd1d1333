!mod$ v1 sum:6030082c06f25007
module m259
real(8)::table259(1_8:64_8)
contains
pure function scale259(x)
real(8),intent(in)::x
real(8)::scale259
end
subroutine kernel259(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
