!mod$ v1 sum:16fffb5cf7731294
module m120
real(8)::table120(1_8:64_8)
contains
pure function scale120(x)
real(8),intent(in)::x
real(8)::scale120
end
subroutine kernel120(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
