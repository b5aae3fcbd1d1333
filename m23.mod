!mod$ v1 sum:40b4bb99987511b4
module m23
real(8)::table23(1_8:64_8)
contains
pure function scale23(x)
real(8),intent(in)::x
real(8)::scale23
end
subroutine kernel23(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
