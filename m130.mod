!mod$ v1 sum:789764652fb8a963
module m130
real(8)::table130(1_8:64_8)
contains
pure function scale130(x)
real(8),intent(in)::x
real(8)::scale130
end
subroutine kernel130(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
