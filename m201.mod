!mod$ v1 sum:f1cdd10f54dba6f8
module m201
real(8)::table201(1_8:64_8)
contains
pure function scale201(x)
real(8),intent(in)::x
real(8)::scale201
end
subroutine kernel201(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
