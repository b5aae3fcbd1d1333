!mod$ v1 sum:040643affab255fe
module m171
real(8)::table171(1_8:64_8)
contains
pure function scale171(x)
real(8),intent(in)::x
real(8)::scale171
end
subroutine kernel171(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
