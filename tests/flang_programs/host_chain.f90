! A device_type(host) procedure called from device code becomes any in flang, and so do its
! callees; a host procedure only host code calls keeps host, and its callees get host too.
module p2
  implicit none
contains
  real function shared(v)
    real, intent(in) :: v
    shared = v
  end function shared
  real function host_only(v)
    real, intent(in) :: v
    host_only = v
  end function host_only
  real function logger(v)
    !$omp declare target to(logger) device_type(host)
    real, intent(in) :: v
    logger = shared(v) + host_only(v)
  end function logger
  real function lonely_host(v)
    !$omp declare target to(lonely_host) device_type(host)
    real, intent(in) :: v
    lonely_host = only_from_host(v)
  end function lonely_host
  real function only_from_host(v)
    real, intent(in) :: v
    only_from_host = v
  end function only_from_host
end module p2
program main
  use p2
  implicit none
  real :: v
  v = 1.0
  !$omp target map(tofrom: v)
  v = shared(v) + logger(v)
  !$omp end target
  v = lonely_host(v)
  print *, v
end program main
