!mod$ v1 sum:943ed61117d45582
module m229
real(8)::table229(1_8:64_8)
contains
pure function scale229(x)
real(8),intent(in)::x
real(8)::scale229
end
subroutine kernel229(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
