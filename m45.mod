!mod$ v1 sum:0a3b328cac85f42c
module m45
real(8)::table45(1_8:64_8)
contains
pure function scale45(x)
real(8),intent(in)::x
real(8)::scale45
end
subroutine kernel45(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
