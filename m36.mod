!mod$ v1 sum:9a55e84b2a98b166
module m36
real(8)::table36(1_8:64_8)
contains
pure function scale36(x)
real(8),intent(in)::x
real(8)::scale36
end
subroutine kernel36(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
