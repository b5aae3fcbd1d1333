! External procedures, a chain of calls, and an internal procedure of a device procedure.
subroutine scale(x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: x(n)
  integer :: i
  do i = 1, n
    x(i) = twice(x(i))
  end do
contains
  real function twice(y)
    real, intent(in) :: y
    twice = 2.0 * y
  end function twice
end subroutine scale

subroutine shift(x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: x(n)
  x = x + 1.0
  call scale(x, n)
end subroutine shift

subroutine unused(x)
  implicit none
  real, intent(inout) :: x
  x = 0.0
end subroutine unused

program driver
  implicit none
  real :: a(8)
  a = 1.0
  !$omp target map(tofrom: a)
  call shift(a, 8)
  !$omp end target
  print *, a(1)
end program driver
