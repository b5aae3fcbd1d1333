!mod$ v1 sum:e705c8c985326c35
module m187
real(8)::table187(1_8:64_8)
contains
pure function scale187(x)
real(8),intent(in)::x
real(8)::scale187
end
subroutine kernel187(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
