!mod$ v1 sum:a1f76ed63316b397
module m91
real(8)::table91(1_8:64_8)
contains
pure function scale91(x)
real(8),intent(in)::x
real(8)::scale91
end
subroutine kernel91(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
