!mod$ v1 sum:e35a2b1bb98f0944
module m106
real(8)::table106(1_8:64_8)
contains
pure function scale106(x)
real(8),intent(in)::x
real(8)::scale106
end
subroutine kernel106(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
