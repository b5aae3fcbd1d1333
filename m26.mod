!mod$ v1 sum:7c3ebdbcf2b92a79
module m26
real(8)::table26(1_8:64_8)
contains
pure function scale26(x)
real(8),intent(in)::x
real(8)::scale26
end
subroutine kernel26(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
