!mod$ v1 sum:cf6957729c6775fc
module m115
real(8)::table115(1_8:64_8)
contains
pure function scale115(x)
real(8),intent(in)::x
real(8)::scale115
end
subroutine kernel115(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
