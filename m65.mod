!mod$ v1 sum:a3b2a604324bdbce
module m65
real(8)::table65(1_8:64_8)
contains
pure function scale65(x)
real(8),intent(in)::x
real(8)::scale65
end
subroutine kernel65(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
