!mod$ v1 sum:1653cbcebd865296
module m269
real(8)::table269(1_8:64_8)
contains
pure function scale269(x)
real(8),intent(in)::x
real(8)::scale269
end
subroutine kernel269(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
