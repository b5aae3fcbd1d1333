!mod$ v1 sum:54d156479c76afa0
module m168
real(8)::table168(1_8:64_8)
contains
pure function scale168(x)
real(8),intent(in)::x
real(8)::scale168
end
subroutine kernel168(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
