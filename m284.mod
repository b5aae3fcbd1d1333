!mod$ v1 sum:8d562aee4fcfa4bd
module m284
real(8)::table284(1_8:64_8)
contains
pure function scale284(x)
real(8),intent(in)::x
real(8)::scale284
end
subroutine kernel284(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
