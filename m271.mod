!mod$ v1 sum:d80f8a56f12b1979
module m271
real(8)::table271(1_8:64_8)
contains
pure function scale271(x)
real(8),intent(in)::x
real(8)::scale271
end
subroutine kernel271(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
