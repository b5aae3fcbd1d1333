!mod$ v1 sum:e3dea17e805b892a
module m265
real(8)::table265(1_8:64_8)
contains
pure function scale265(x)
real(8),intent(in)::x
real(8)::scale265
end
subroutine kernel265(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
