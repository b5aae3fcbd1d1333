!mod$ v1 sum:706d603203cdaefd
module m165
real(8)::table165(1_8:64_8)
contains
pure function scale165(x)
real(8),intent(in)::x
real(8)::scale165
end
subroutine kernel165(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
