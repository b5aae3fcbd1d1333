!mod$ v1 sum:1055cbef5e16df6c
module m230
real(8)::table230(1_8:64_8)
contains
pure function scale230(x)
real(8),intent(in)::x
real(8)::scale230
end
subroutine kernel230(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
