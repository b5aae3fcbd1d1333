!mod$ v1 sum:a113f79717a506d6
module m207
real(8)::table207(1_8:64_8)
contains
pure function scale207(x)
real(8),intent(in)::x
real(8)::scale207
end
subroutine kernel207(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
