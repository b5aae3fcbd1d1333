// saxpy.c: y = a*x + y on the default device with one combined construct.
//
// Build and run (clang, offloading to the host-offload plugin):
//   clang-22 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu saxpy.c -o saxpy
//   OMP_TARGET_OFFLOAD=MANDATORY ./saxpy
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *x, float *y) {
  // x is only read on the device, y is read and written back.
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  const int n = 1 << 20;
  const float a = 2.0f;
  float *x = malloc(n * sizeof *x);
  float *y = malloc(n * sizeof *y);
  if (x == NULL || y == NULL)
    return 1;
  for (int i = 0; i < n; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }

  int on_device = 0;
#pragma omp target map(from: on_device)
  on_device = !omp_is_initial_device();

  saxpy(n, a, x, y);

  int errors = 0;
  for (int i = 0; i < n; ++i)
    if (fabsf(y[i] - (a * (float)i + 1.0f)) > 1e-3f * fabsf(y[i]))
      ++errors;
  printf("saxpy: %d elements, %d errors, devices=%d, ran on %s\n", n, errors, omp_get_num_devices(),
         on_device ? "the device" : "the host");
  free(x);
  free(y);
  return errors != 0;
}
