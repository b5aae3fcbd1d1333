!mod$ v1 sum:8ba91779057dd65d
module m107
real(8)::table107(1_8:64_8)
contains
pure function scale107(x)
real(8),intent(in)::x
real(8)::scale107
end
subroutine kernel107(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
