!mod$ v1 sum:d17f7552c8e1ec84
module m137
real(8)::table137(1_8:64_8)
contains
pure function scale137(x)
real(8),intent(in)::x
real(8)::scale137
end
subroutine kernel137(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
