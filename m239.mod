!mod$ v1 sum:07677a2d3272ff45
module m239
real(8)::table239(1_8:64_8)
contains
pure function scale239(x)
real(8),intent(in)::x
real(8)::scale239
end
subroutine kernel239(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
