!mod$ v1 sum:2f35c79ef8ec7249
module m31
real(8)::table31(1_8:64_8)
contains
pure function scale31(x)
real(8),intent(in)::x
real(8)::scale31
end
subroutine kernel31(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
