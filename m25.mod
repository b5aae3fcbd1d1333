!mod$ v1 sum:d17fc9055c96f8a2
module m25
real(8)::table25(1_8:64_8)
contains
pure function scale25(x)
real(8),intent(in)::x
real(8)::scale25
end
subroutine kernel25(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
