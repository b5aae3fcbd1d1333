!mod$ v1 sum:654e6b08fb43b0ac
module m151
real(8)::table151(1_8:64_8)
contains
pure function scale151(x)
real(8),intent(in)::x
real(8)::scale151
end
subroutine kernel151(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
