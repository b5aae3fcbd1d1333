!mod$ v1 sum:58a24e9e5285b570
module m124
real(8)::table124(1_8:64_8)
contains
pure function scale124(x)
real(8),intent(in)::x
real(8)::scale124
end
subroutine kernel124(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
