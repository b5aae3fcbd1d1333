!mod$ v1 sum:0c27cdbc62bea86f
module m105
real(8)::table105(1_8:64_8)
contains
pure function scale105(x)
real(8),intent(in)::x
real(8)::scale105
end
subroutine kernel105(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
