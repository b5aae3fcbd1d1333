!mod$ v1 sum:8fa0f6ce91bc5cb9
module m208
real(8)::table208(1_8:64_8)
contains
pure function scale208(x)
real(8),intent(in)::x
real(8)::scale208
end
subroutine kernel208(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
