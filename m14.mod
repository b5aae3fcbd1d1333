!mod$ v1 sum:d9f2c9932f557b3a
module m14
real(8)::table14(1_8:64_8)
contains
pure function scale14(x)
real(8),intent(in)::x
real(8)::scale14
end
subroutine kernel14(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
