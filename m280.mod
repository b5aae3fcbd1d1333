!mod$ v1 sum:148f046438f9ef69
module m280
real(8)::table280(1_8:64_8)
contains
pure function scale280(x)
real(8),intent(in)::x
real(8)::scale280
end
subroutine kernel280(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
