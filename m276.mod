!mod$ v1 sum:6b267fdd6883730e
module m276
real(8)::table276(1_8:64_8)
contains
pure function scale276(x)
real(8),intent(in)::x
real(8)::scale276
end
subroutine kernel276(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
