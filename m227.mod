!mod$ v1 sum:ad9acef15a307be4
module m227
real(8)::table227(1_8:64_8)
contains
pure function scale227(x)
real(8),intent(in)::x
real(8)::scale227
end
subroutine kernel227(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
