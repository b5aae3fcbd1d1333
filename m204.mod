!mod$ v1 sum:c59ddb7a302ad415
module m204
real(8)::table204(1_8:64_8)
contains
pure function scale204(x)
real(8),intent(in)::x
real(8)::scale204
end
subroutine kernel204(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
