!mod$ v1 sum:855cfb49aa488815
module m35
real(8)::table35(1_8:64_8)
contains
pure function scale35(x)
real(8),intent(in)::x
real(8)::scale35
end
subroutine kernel35(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
