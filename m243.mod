!mod$ v1 sum:84af92d3538f9306
module m243
real(8)::table243(1_8:64_8)
contains
pure function scale243(x)
real(8),intent(in)::x
real(8)::scale243
end
subroutine kernel243(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
