!mod$ v1 sum:93033babc8553b05
module m129
real(8)::table129(1_8:64_8)
contains
pure function scale129(x)
real(8),intent(in)::x
real(8)::scale129
end
subroutine kernel129(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
