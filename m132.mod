!mod$ v1 sum:3ea0abaa96188529
module m132
real(8)::table132(1_8:64_8)
contains
pure function scale132(x)
real(8),intent(in)::x
real(8)::scale132
end
subroutine kernel132(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
