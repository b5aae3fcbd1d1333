!mod$ v1 sum:0c4f5461d320f181
module m200
real(8)::table200(1_8:64_8)
contains
pure function scale200(x)
real(8),intent(in)::x
real(8)::scale200
end
subroutine kernel200(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
