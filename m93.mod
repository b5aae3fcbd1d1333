!mod$ v1 sum:d54f2acefc0c3bc5
module m93
real(8)::table93(1_8:64_8)
contains
pure function scale93(x)
real(8),intent(in)::x
real(8)::scale93
end
subroutine kernel93(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
