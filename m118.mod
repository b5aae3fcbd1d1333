!mod$ v1 sum:19901b58425a3b99
module m118
real(8)::table118(1_8:64_8)
contains
pure function scale118(x)
real(8),intent(in)::x
real(8)::scale118
end
subroutine kernel118(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
