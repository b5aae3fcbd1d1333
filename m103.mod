!mod$ v1 sum:7446bf848c567449
module m103
real(8)::table103(1_8:64_8)
contains
pure function scale103(x)
real(8),intent(in)::x
real(8)::scale103
end
subroutine kernel103(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
