!mod$ v1 sum:a20f24d7828826db
module m42
real(8)::table42(1_8:64_8)
contains
pure function scale42(x)
real(8),intent(in)::x
real(8)::scale42
end
subroutine kernel42(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
