!mod$ v1 sum:282882aee11bdc67
module m37
real(8)::table37(1_8:64_8)
contains
pure function scale37(x)
real(8),intent(in)::x
real(8)::scale37
end
subroutine kernel37(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
