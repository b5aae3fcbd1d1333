!mod$ v1 sum:56399893ecac7fcd
module m217
real(8)::table217(1_8:64_8)
contains
pure function scale217(x)
real(8),intent(in)::x
real(8)::scale217
end
subroutine kernel217(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
