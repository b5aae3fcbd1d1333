!mod$ v1 sum:ad690a0b691cb692
module m61
real(8)::table61(1_8:64_8)
contains
pure function scale61(x)
real(8),intent(in)::x
real(8)::scale61
end
subroutine kernel61(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
