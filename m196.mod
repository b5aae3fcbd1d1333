!mod$ v1 sum:659016d460ee9497
module m196
real(8)::table196(1_8:64_8)
contains
pure function scale196(x)
real(8),intent(in)::x
real(8)::scale196
end
subroutine kernel196(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
