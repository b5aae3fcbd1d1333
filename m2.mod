!mod$ v1 sum:25aa76aa5411e379
module m2
real(8)::table2(1_8:64_8)
contains
pure function scale2(x)
real(8),intent(in)::x
real(8)::scale2
end
subroutine kernel2(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
