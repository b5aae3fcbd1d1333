!mod$ v1 sum:0c68aad7eddb8a57
module m141
real(8)::table141(1_8:64_8)
contains
pure function scale141(x)
real(8),intent(in)::x
real(8)::scale141
end
subroutine kernel141(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
