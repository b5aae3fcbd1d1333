!mod$ v1 sum:78ff7a526489e9a3
module m68
real(8)::table68(1_8:64_8)
contains
pure function scale68(x)
real(8),intent(in)::x
real(8)::scale68
end
subroutine kernel68(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
