!mod$ v1 sum:b515f0930c4d1522
module m9
real(8)::table9(1_8:64_8)
contains
pure function scale9(x)
real(8),intent(in)::x
real(8)::scale9
end
subroutine kernel9(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
