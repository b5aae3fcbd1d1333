!mod$ v1 sum:4f5416f0ad1c2274
module m70
real(8)::table70(1_8:64_8)
contains
pure function scale70(x)
real(8),intent(in)::x
real(8)::scale70
end
subroutine kernel70(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
