!mod$ v1 sum:5b4f4f72ecee316b
module m60
real(8)::table60(1_8:64_8)
contains
pure function scale60(x)
real(8),intent(in)::x
real(8)::scale60
end
subroutine kernel60(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
