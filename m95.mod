!mod$ v1 sum:8f25e12551867fcb
module m95
real(8)::table95(1_8:64_8)
contains
pure function scale95(x)
real(8),intent(in)::x
real(8)::scale95
end
subroutine kernel95(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
