!mod$ v1 sum:2483d94352383341
module m147
real(8)::table147(1_8:64_8)
contains
pure function scale147(x)
real(8),intent(in)::x
real(8)::scale147
end
subroutine kernel147(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
