!mod$ v1 sum:d9271e05c4b1b76f
module m167
real(8)::table167(1_8:64_8)
contains
pure function scale167(x)
real(8),intent(in)::x
real(8)::scale167
end
subroutine kernel167(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
