!mod$ v1 sum:8f12744db91bb2ab
module m255
real(8)::table255(1_8:64_8)
contains
pure function scale255(x)
real(8),intent(in)::x
real(8)::scale255
end
subroutine kernel255(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
