!mod$ v1 sum:6dff5b90b75348a8
module m49
real(8)::table49(1_8:64_8)
contains
pure function scale49(x)
real(8),intent(in)::x
real(8)::scale49
end
subroutine kernel49(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
