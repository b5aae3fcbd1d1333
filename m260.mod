!mod$ v1 sum:0bf26d6ceb2d8fc7
module m260
real(8)::table260(1_8:64_8)
contains
pure function scale260(x)
real(8),intent(in)::x
real(8)::scale260
end
subroutine kernel260(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
