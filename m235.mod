!mod$ v1 sum:8618d01c1dc3fb89
module m235
real(8)::table235(1_8:64_8)
contains
pure function scale235(x)
real(8),intent(in)::x
real(8)::scale235
end
subroutine kernel235(n,a,b)
integer(4),intent(in)::n
real(8),intent(inout)::a(1_8:int(n,kind=8))
real(8),intent(in)::b(1_8:int(n,kind=8))
end
end
