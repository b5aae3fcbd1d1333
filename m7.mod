!mod$ v1 sum:8c6ecfe115ecebc4
module m7
real(8)::table7(1_8:64_8)
contains
pure function scale7(x)
real(8),intent(in)::x
real(8)::scale7
end
subroutine kernel7(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
