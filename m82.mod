!mod$ v1 sum:1daa4d99760fe857
module m82
real(8)::table82(1_8:64_8)
contains
pure function scale82(x)
real(8),intent(in)::x
real(8)::scale82
end
subroutine kernel82(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
