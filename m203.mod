!mod$ v1 sum:68be60c03b1d8a32
module m203
real(8)::table203(1_8:64_8)
contains
pure function scale203(x)
real(8),intent(in)::x
real(8)::scale203
end
subroutine kernel203(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
