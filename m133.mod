!mod$ v1 sum:376395da85053838
module m133
real(8)::table133(1_8:64_8)
contains
pure function scale133(x)
real(8),intent(in)::x
real(8)::scale133
end
subroutine kernel133(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
