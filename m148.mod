!mod$ v1 sum:5ae2f5c56ad23bc6
module m148
real(8)::table148(1_8:64_8)
contains
pure function scale148(x)
real(8),intent(in)::x
real(8)::scale148
end
subroutine kernel148(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
