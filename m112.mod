!mod$ v1 sum:ce4b05fffb89480b
module m112
real(8)::table112(1_8:64_8)
contains
pure function scale112(x)
real(8),intent(in)::x
real(8)::scale112
end
subroutine kernel112(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
