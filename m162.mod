!mod$ v1 sum:55a957ff8f46bea2
module m162
real(8)::table162(1_8:64_8)
contains
pure function scale162(x)
real(8),intent(in)::x
real(8)::scale162
end
subroutine kernel162(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
