!mod$ v1 sum:b1a87744c7bc561c
module m205
real(8)::table205(1_8:64_8)
contains
pure function scale205(x)
real(8),intent(in)::x
real(8)::scale205
end
subroutine kernel205(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
