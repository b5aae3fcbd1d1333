!mod$ v1 sum:60ea1cc28303d24a
module m221
real(8)::table221(1_8:64_8)
contains
pure function scale221(x)
real(8),intent(in)::x
real(8)::scale221
end
subroutine kernel221(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
