!mod$ v1 sum:a35de1a2c28fbd45
module m248
real(8)::table248(1_8:64_8)
contains
pure function scale248(x)
real(8),intent(in)::x
real(8)::scale248
end
subroutine kernel248(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
