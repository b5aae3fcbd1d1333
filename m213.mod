!mod$ v1 sum:431bb92601a54e49
module m213
real(8)::table213(1_8:64_8)
contains
pure function scale213(x)
real(8),intent(in)::x
real(8)::scale213
end
subroutine kernel213(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
