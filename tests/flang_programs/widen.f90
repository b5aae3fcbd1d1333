! Reached only from a target region: flang marks nohost. Also called from host code: any.
! Called from an explicitly marked (any) procedure: any, as its caller.
module physics
  implicit none
contains
  real function drag(v)
    real, intent(in) :: v
    drag = 0.1 * v
  end function drag

  real function lift(v)
    real, intent(in) :: v
    lift = 0.2 * v
  end function lift

  real function gravity(v)
    real, intent(in) :: v
    gravity = v - 9.81
  end function gravity

  real function tidy(v)
    real, intent(in) :: v
    tidy = abs(v)
  end function tidy

  real function marked(v)
    !$omp declare target
    real, intent(in) :: v
    marked = tidy(v)
  end function marked

  real function device_only(v)
    !$omp declare target to(device_only) device_type(nohost)
    real, intent(in) :: v
    device_only = gravity(v)
  end function device_only

  real function host_side(v)
    real, intent(in) :: v
    host_side = 2.0 * v
  end function host_side
end module physics

program main
  use physics
  implicit none
  real :: v
  v = 1.0
  !$omp target map(tofrom: v)
  v = drag(v) + lift(v) + marked(v) + device_only(v)
  !$omp end target
  v = v + lift(v) + host_side(v)
  print *, v
end program main
