!mod$ v1 sum:ca487c92f78518bd
module m226
real(8)::table226(1_8:64_8)
contains
pure function scale226(x)
real(8),intent(in)::x
real(8)::scale226
end
subroutine kernel226(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
