!mod$ v1 sum:bfa516ad161716d4
module m263
real(8)::table263(1_8:64_8)
contains
pure function scale263(x)
real(8),intent(in)::x
real(8)::scale263
end
subroutine kernel263(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
