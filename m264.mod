!mod$ v1 sum:3a3122b92245b133
module m264
real(8)::table264(1_8:64_8)
contains
pure function scale264(x)
real(8),intent(in)::x
real(8)::scale264
end
subroutine kernel264(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
