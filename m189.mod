!mod$ v1 sum:9cb53b779131462b
module m189
real(8)::table189(1_8:64_8)
contains
pure function scale189(x)
real(8),intent(in)::x
real(8)::scale189
end
subroutine kernel189(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
