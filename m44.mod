!mod$ v1 sum:0a17e050c1708a4d
module m44
real(8)::table44(1_8:64_8)
contains
pure function scale44(x)
real(8),intent(in)::x
real(8)::scale44
end
subroutine kernel44(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
