!mod$ v1 sum:b01b7646c989e5aa
module m236
real(8)::table236(1_8:64_8)
contains
pure function scale236(x)
real(8),intent(in)::x
real(8)::scale236
end
subroutine kernel236(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
