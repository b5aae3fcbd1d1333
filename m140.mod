!mod$ v1 sum:20bc6faed813985e
module m140
real(8)::table140(1_8:64_8)
contains
pure function scale140(x)
real(8),intent(in)::x
real(8)::scale140
end
subroutine kernel140(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
