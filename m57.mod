!mod$ v1 sum:317d5f61cc3a3c2d
module m57
real(8)::table57(1_8:64_8)
contains
pure function scale57(x)
real(8),intent(in)::x
real(8)::scale57
end
subroutine kernel57(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
