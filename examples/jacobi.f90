! jacobi.f90: Jacobi iteration for the 2-D Laplace equation. A module procedure is made
! available on the device with declare target; the grids stay on the device for the whole
! iteration inside one target data region; max and sum reductions run on the device.
!
! Build and run (host build; flang 22 cannot link device code on this machine):
!   flang-22 -fopenmp -fopenmp-version=51 jacobi.f90 -o jacobi && ./jacobi
! or gfortran -fopenmp jacobi.f90 -o jacobi && ./jacobi
module stencil
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  pure real(dp) function average4(n, s, e, w)
    !$omp declare target
    real(dp), intent(in) :: n, s, e, w
    average4 = 0.25_dp * (n + s + e + w)
  end function average4
end module stencil

program jacobi
  use stencil
  implicit none
  integer, parameter :: nx = 48, ny = 48, max_iter = 10000
  real(dp), parameter :: tol = 1.0e-5_dp
  real(dp), allocatable :: u(:, :), unew(:, :)
  real(dp) :: err, total
  integer :: i, j, iter

  allocate(u(nx, ny), unew(nx, ny))
  u = 0.0_dp
  u(:, 1) = 1.0_dp          ! hot bottom edge
  unew = u
  err = huge(1.0_dp)
  iter = 0

  !$omp target data map(tofrom: u) map(to: unew)
  do while (err > tol .and. iter < max_iter)
    err = 0.0_dp
    !$omp target teams distribute parallel do collapse(2) reduction(max: err) map(tofrom: err)
    do j = 2, ny - 1
      do i = 2, nx - 1
        unew(i, j) = average4(u(i, j + 1), u(i, j - 1), u(i + 1, j), u(i - 1, j))
        err = max(err, abs(unew(i, j) - u(i, j)))
      end do
    end do
    !$omp end target teams distribute parallel do

    !$omp target teams distribute parallel do collapse(2)
    do j = 2, ny - 1
      do i = 2, nx - 1
        u(i, j) = unew(i, j)
      end do
    end do
    iter = iter + 1
  end do
  !$omp end target data

  total = 0.0_dp
  !$omp target teams distribute parallel do collapse(2) reduction(+: total) map(to: u)
  do j = 1, ny
    do i = 1, nx
      total = total + u(i, j)
    end do
  end do

  print '(a, i6, a, es10.3, a, f12.6)', 'iterations', iter, '  error', err, '  heat', total
  if (err > tol .and. iter < max_iter) stop 1
end program jacobi
