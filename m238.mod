!mod$ v1 sum:5d713df76f327774
module m238
real(8)::table238(1_8:64_8)
contains
pure function scale238(x)
real(8),intent(in)::x
real(8)::scale238
end
subroutine kernel238(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
