!mod$ v1 sum:66d02c858f8f8f75
module m253
real(8)::table253(1_8:64_8)
contains
pure function scale253(x)
real(8),intent(in)::x
real(8)::scale253
end
subroutine kernel253(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
