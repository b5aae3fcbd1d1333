!mod$ v1 sum:794f66aad091b234
module m56
real(8)::table56(1_8:64_8)
contains
pure function scale56(x)
real(8),intent(in)::x
real(8)::scale56
end
subroutine kernel56(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
