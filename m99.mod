!mod$ v1 sum:c6171d3aa68ee86f
module m99
real(8)::table99(1_8:64_8)
contains
pure function scale99(x)
real(8),intent(in)::x
real(8)::scale99
end
subroutine kernel99(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
