!mod$ v1 sum:207589fcd98d15b1
module m198
real(8)::table198(1_8:64_8)
contains
pure function scale198(x)
real(8),intent(in)::x
real(8)::scale198
end
subroutine kernel198(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
