!mod$ v1 sum:d027d96eb3bc6ad7
module m28
real(8)::table28(1_8:64_8)
contains
pure function scale28(x)
real(8),intent(in)::x
real(8)::scale28
end
subroutine kernel28(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
