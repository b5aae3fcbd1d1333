!mod$ v1 sum:9bed8f637768eea7
module m178
real(8)::table178(1_8:64_8)
contains
pure function scale178(x)
real(8),intent(in)::x
real(8)::scale178
end
subroutine kernel178(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
