!mod$ v1 sum:bfbfa8b72fa08d07
module m152
real(8)::table152(1_8:64_8)
contains
pure function scale152(x)
real(8),intent(in)::x
real(8)::scale152
end
subroutine kernel152(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
