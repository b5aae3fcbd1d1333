! flang widens what meets: a procedure called from a target region and from a device_type(host)
! procedure becomes any, a device_type(host) procedure called from device code becomes any; a
! procedure called from plain host code stays nohost (plain host code marks nothing).
module probe
  implicit none
contains
  real function a1(v)
    real, intent(in) :: v
    a1 = v
  end function a1
  real function a2(v)
    real, intent(in) :: v
    a2 = v
  end function a2
  real function a3(v)
    real, intent(in) :: v
    a3 = v
  end function a3
  real function a4(v)
    real, intent(in) :: v
    a4 = v
  end function a4
  real function plain_host(v)
    real, intent(in) :: v
    plain_host = a1(v)
  end function plain_host
  real function marked_host(v)
    !$omp declare target to(marked_host) device_type(host)
    real, intent(in) :: v
    marked_host = a2(v)
  end function marked_host
  real function marked_any(v)
    !$omp declare target to(marked_any)
    real, intent(in) :: v
    marked_any = a3(v)
  end function marked_any
  real function host_twice(v)
    !$omp declare target to(host_twice) device_type(host)
    real, intent(in) :: v
    host_twice = v
  end function host_twice
end module probe

program main
  use probe
  implicit none
  real :: v
  v = 1.0
  !$omp target map(tofrom: v)
  v = a1(v) + a2(v) + a3(v) + a4(v) + host_twice(v)
  !$omp end target
  v = plain_host(v) + marked_host(v) + marked_any(v)
  print *, v
end program main
