!mod$ v1 sum:fc7bf1f2ad675fd1
module m39
real(8)::table39(1_8:64_8)
contains
pure function scale39(x)
real(8),intent(in)::x
real(8)::scale39
end
subroutine kernel39(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
