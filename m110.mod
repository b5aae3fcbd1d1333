!mod$ v1 sum:09f292713fa1f861
module m110
real(8)::table110(1_8:64_8)
contains
pure function scale110(x)
real(8),intent(in)::x
real(8)::scale110
end
subroutine kernel110(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
