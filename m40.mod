!mod$ v1 sum:157d333b01b822f9
module m40
real(8)::table40(1_8:64_8)
contains
pure function scale40(x)
real(8),intent(in)::x
real(8)::scale40
end
subroutine kernel40(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
