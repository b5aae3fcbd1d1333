!mod$ v1 sum:41a5224ca548a19d
module m66
real(8)::table66(1_8:64_8)
contains
pure function scale66(x)
real(8),intent(in)::x
real(8)::scale66
end
subroutine kernel66(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
