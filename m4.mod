!mod$ v1 sum:9ac96f27f646f7df
module m4
real(8)::table4(1_8:64_8)
contains
pure function scale4(x)
real(8),intent(in)::x
real(8)::scale4
end
subroutine kernel4(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
