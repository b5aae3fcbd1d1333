!mod$ v1 sum:b624ab51ff4fe9ea
module m188
real(8)::table188(1_8:64_8)
contains
pure function scale188(x)
real(8),intent(in)::x
real(8)::scale188
end
subroutine kernel188(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
