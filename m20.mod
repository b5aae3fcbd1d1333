!mod$ v1 sum:3cb7bcdd6211835f
module m20
real(8)::table20(1_8:64_8)
contains
pure function scale20(x)
real(8),intent(in)::x
real(8)::scale20
end
subroutine kernel20(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
