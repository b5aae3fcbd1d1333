!mod$ v1 sum:6779c6fce9a1cadf
module m73
real(8)::table73(1_8:64_8)
contains
pure function scale73(x)
real(8),intent(in)::x
real(8)::scale73
end
subroutine kernel73(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
