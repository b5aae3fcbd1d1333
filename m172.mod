!mod$ v1 sum:f2225ed72df79bb5
module m172
real(8)::table172(1_8:64_8)
contains
pure function scale172(x)
real(8),intent(in)::x
real(8)::scale172
end
subroutine kernel172(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
