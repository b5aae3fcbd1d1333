!mod$ v1 sum:e267d378fc98a0a9
module m244
real(8)::table244(1_8:64_8)
contains
pure function scale244(x)
real(8),intent(in)::x
real(8)::scale244
end
subroutine kernel244(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
