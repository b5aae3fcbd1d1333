!mod$ v1 sum:ee4962690283b4bd
module m275
real(8)::table275(1_8:64_8)
contains
pure function scale275(x)
real(8),intent(in)::x
real(8)::scale275
end
subroutine kernel275(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
