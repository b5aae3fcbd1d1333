!mod$ v1 sum:896e761b3f563563
module m51
real(8)::table51(1_8:64_8)
contains
pure function scale51(x)
real(8),intent(in)::x
real(8)::scale51
end
subroutine kernel51(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
