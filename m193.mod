!mod$ v1 sum:94ebb71a1ce3cba2
module m193
real(8)::table193(1_8:64_8)
contains
pure function scale193(x)
real(8),intent(in)::x
real(8)::scale193
end
subroutine kernel193(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
