!mod$ v1 sum:b9425d768e3229a5
module m262
real(8)::table262(1_8:64_8)
contains
pure function scale262(x)
real(8),intent(in)::x
real(8)::scale262
end
subroutine kernel262(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
