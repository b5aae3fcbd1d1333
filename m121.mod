!mod$ v1 sum:5b70323c0a1110ed
module m121
real(8)::table121(1_8:64_8)
contains
pure function scale121(x)
real(8),intent(in)::x
real(8)::scale121
end
subroutine kernel121(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
