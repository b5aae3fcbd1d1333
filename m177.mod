!mod$ v1 sum:9a5cbc24943318c8
module m177
real(8)::table177(1_8:64_8)
contains
pure function scale177(x)
real(8),intent(in)::x
real(8)::scale177
end
subroutine kernel177(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
