!mod$ v1 sum:f4ed2315d9224bb0
module m209
real(8)::table209(1_8:64_8)
contains
pure function scale209(x)
real(8),intent(in)::x
real(8)::scale209
end
subroutine kernel209(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
