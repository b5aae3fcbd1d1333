!mod$ v1 sum:05d9bf7b2d098280
module m3
real(8)::table3(1_8:64_8)
contains
pure function scale3(x)
real(8),intent(in)::x
real(8)::scale3
end
subroutine kernel3(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
