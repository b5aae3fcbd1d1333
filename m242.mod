!mod$ v1 sum:a416596e938ebdef
module m242
real(8)::table242(1_8:64_8)
contains
pure function scale242(x)
real(8),intent(in)::x
real(8)::scale242
end
subroutine kernel242(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
