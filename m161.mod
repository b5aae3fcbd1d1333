!mod$ v1 sum:c205be8ce7805489
module m161
real(8)::table161(1_8:64_8)
contains
pure function scale161(x)
real(8),intent(in)::x
real(8)::scale161
end
subroutine kernel161(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
