!mod$ v1 sum:7979b76df8421cad
module m71
real(8)::table71(1_8:64_8)
contains
pure function scale71(x)
real(8),intent(in)::x
real(8)::scale71
end
subroutine kernel71(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
