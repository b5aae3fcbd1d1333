! mistakes.f90: Fortran declare target, target construct, declare variant and propagation mistakes. Each faulty line carries the diagnostic
! omp-lsp reports for it (`! expect: OMPxxx`). flang-22 reports some of them; the others
! (OMP153, OMP163) only show up as a wrong device image or a failed device link.
module field
  implicit none
  real :: grid(100)
  real :: alias(100)
  equivalence (grid(1), alias(1))
  type :: cell
    real :: value
  end type cell
  type(cell) :: origin
  real :: weights(8)
  ! 1. A variable that shares storage through EQUIVALENCE (OMP161).
  !$omp declare target(alias) ! expect: OMP161
  ! 2. A structure component instead of the whole variable (OMP157; quick fix: name 'origin').
  !$omp declare target(origin%value) ! expect: OMP157
  ! 3. An array element instead of the whole array (OMP157).
  !$omp declare target(weights(1)) ! expect: OMP157
contains
  subroutine smooth(n, a)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    real :: scratch(100)
    integer :: i
    ! 4. A local variable without SAVE (OMP162): it does not outlive a call, so it cannot be
    !    mapped for all device executions. `real, save :: scratch(100)` would do.
    !$omp declare target(scratch) ! expect: OMP162
    !$omp declare target to(smooth) device_type(nohost)
    do i = 2, n - 1
      scratch(i) = (a(i - 1) + a(i) + a(i + 1)) / 3.0
    end do
    a(2:n - 1) = scratch(2:n - 1)
  contains
    subroutine clamp(x)
      real, intent(inout) :: x
      ! 5. A directive in an internal procedure whose host has device_type (OMP163): the host's
      !    device_type already applies to it.
      !$omp declare target ! expect: OMP163
      x = max(0.0, x)
    end subroutine clamp
  end subroutine smooth

  subroutine relax(x)
    real, intent(inout) :: x
    x = 0.5 * x
  end subroutine relax

  ! 6. A procedure named outside its own specification part (OMP153): the directive belongs in
  !    relax itself.
  subroutine driver()
    !$omp declare target(relax) ! expect: OMP153
  end subroutine driver

  ! 7. A declare variant whose variant is the base procedure itself (OMP305).
  subroutine blur(x)
    real, intent(inout) :: x
    !$omp declare variant(blur) match(device={kind(gpu)}) ! expect: OMP305
    x = 0.25 * x
  end subroutine blur

  subroutine launch(n, a)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    ! 8. 'delete' is a map type of 'target exit data', not of 'target' (OMP201).
    !$omp target map(delete: a) ! expect: OMP201
    a(1) = 0.0
    !$omp end target
    ! 9. A negative thread limit (OMP210).
    !$omp target teams thread_limit(-4) map(tofrom: a) ! expect: OMP210
    a(2) = 1.0
    !$omp end target teams
    ! Read directly in a target region, grid would be mapped; see 10 for a procedure.
    !$omp target map(tofrom: a)
    call spread(a(3))
    !$omp end target
  end subroutine launch

  ! 10. A module variable read by a procedure that runs on the device (spread is implicitly
  !     declare target through the region in launch) but not declare target itself (OMP404; quick
  !     fix: declare it target): the device has no copy of grid, and the device link fails.
  subroutine spread(x)
    real, intent(inout) :: x
    x = x + grid(1) ! expect: OMP404
  end subroutine spread
end module field
