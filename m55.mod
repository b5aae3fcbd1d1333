!mod$ v1 sum:d518ffd0d07ec8ef
module m55
real(8)::table55(1_8:64_8)
contains
pure function scale55(x)
real(8),intent(in)::x
real(8)::scale55
end
subroutine kernel55(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
