!mod$ v1 sum:c64f748a2398853b
module m127
real(8)::table127(1_8:64_8)
contains
pure function scale127(x)
real(8),intent(in)::x
real(8)::scale127
end
subroutine kernel127(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
