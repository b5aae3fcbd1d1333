!mod$ v1 sum:75b28df05090c05b
module m219
real(8)::table219(1_8:64_8)
contains
pure function scale219(x)
real(8),intent(in)::x
real(8)::scale219
end
subroutine kernel219(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
