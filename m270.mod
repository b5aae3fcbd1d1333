!mod$ v1 sum:69c6e959e119e888
module m270
real(8)::table270(1_8:64_8)
contains
pure function scale270(x)
real(8),intent(in)::x
real(8)::scale270
end
subroutine kernel270(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
