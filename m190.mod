!mod$ v1 sum:0659dde05b289cc9
module m190
real(8)::table190(1_8:64_8)
contains
pure function scale190(x)
real(8),intent(in)::x
real(8)::scale190
end
subroutine kernel190(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
