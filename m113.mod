!mod$ v1 sum:da9c9c72b4a7831a
module m113
real(8)::table113(1_8:64_8)
contains
pure function scale113(x)
real(8),intent(in)::x
real(8)::scale113
end
subroutine kernel113(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
