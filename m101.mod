!mod$ v1 sum:a4be9fcea1a9c85b
module m101
real(8)::table101(1_8:64_8)
contains
pure function scale101(x)
real(8),intent(in)::x
real(8)::scale101
end
subroutine kernel101(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
