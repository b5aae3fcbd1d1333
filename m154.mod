!mod$ v1 sum:491c8e81f33e5869
module m154
real(8)::table154(1_8:64_8)
contains
pure function scale154(x)
real(8),intent(in)::x
real(8)::scale154
end
subroutine kernel154(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
