!mod$ v1 sum:c16962e48b84494e
module m72
real(8)::table72(1_8:64_8)
contains
pure function scale72(x)
real(8),intent(in)::x
real(8)::scale72
end
subroutine kernel72(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
