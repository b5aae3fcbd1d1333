!mod$ v1 sum:9223b5a5bb845128
module m27
real(8)::table27(1_8:64_8)
contains
pure function scale27(x)
real(8),intent(in)::x
real(8)::scale27
end
subroutine kernel27(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
