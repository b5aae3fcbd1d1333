!mod$ v1 sum:5df1b914ceca2492
module m272
real(8)::table272(1_8:64_8)
contains
pure function scale272(x)
real(8),intent(in)::x
real(8)::scale272
end
subroutine kernel272(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
