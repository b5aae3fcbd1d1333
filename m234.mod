!mod$ v1 sum:9dfe39f005412360
module m234
real(8)::table234(1_8:64_8)
contains
pure function scale234(x)
real(8),intent(in)::x
real(8)::scale234
end
subroutine kernel234(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
