!mod$ v1 sum:a98f1a8767c12c33
module m273
real(8)::table273(1_8:64_8)
contains
pure function scale273(x)
real(8),intent(in)::x
real(8)::scale273
end
subroutine kernel273(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
