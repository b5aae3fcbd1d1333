!mod$ v1 sum:8f2fc523566a4ad0
module m267
real(8)::table267(1_8:64_8)
contains
pure function scale267(x)
real(8),intent(in)::x
real(8)::scale267
end
subroutine kernel267(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
