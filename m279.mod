!mod$ v1 sum:4846db665ae50051
module m279
real(8)::table279(1_8:64_8)
contains
pure function scale279(x)
real(8),intent(in)::x
real(8)::scale279
end
subroutine kernel279(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
