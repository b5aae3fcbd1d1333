!mod$ v1 sum:aa3787e227cd55a3
module m15
real(8)::table15(1_8:64_8)
contains
pure function scale15(x)
real(8),intent(in)::x
real(8)::scale15
end
subroutine kernel15(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
