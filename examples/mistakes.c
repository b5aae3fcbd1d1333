// mistakes.c: a small offloading program with deliberate declare target, target construct,
// declare variant and device-type propagation mistakes.
// Each faulty line carries the diagnostic omp-lsp reports for it (`// expect: OMPxxx`).
// Run `omp-lsp --check mistakes.c` to see them; clang-22 -fopenmp -fsyntax-only reports
// most of them too.
#include <stdio.h>

#define N 1000

// 1. A misspelt clause name (OMP002): 'device_tpye' instead of 'device_type'.
double gain = 2.0;
#pragma omp declare target to(gain) device_tpye(any) // expect: OMP002

// 2. A unique clause given twice (OMP005): device_type may appear only once.
double scale(double v) { return gain * v; }
#pragma omp declare target to(scale) device_type(any) device_type(any) // expect: OMP005

// 3. A device type that does not exist (OMP004): valid are host, nohost and any.
double shift(double v) { return v + 1.0; }
#pragma omp declare target to(shift) device_type(gpu) // expect: OMP004

// 4. The OpenMP 5.2 spelling 'enter' in a 5.1 program (OMP007).
double offset = 0.5;
#pragma omp declare target enter(offset) // expect: OMP007

// 5. A misspelt directive name (OMP001): the region below is not a region at all for the compiler.
// (omp-lsp takes it as the begin it was meant to be, so its end is not reported as well.)
#pragma omp begin declare taget // expect: OMP001
double square(double v) { return v * v; }
#pragma omp end declare target

// 5b. An end directive with nothing to close (OMP006).
#pragma omp end declare target // expect: OMP006

// 6. Stray words after 'end declare target' (OMP009).
#pragma omp begin declare target
double cube(double v) { return v * v * v; }
#pragma omp end declare target cube // expect: OMP009

// 8. The same variable twice in one directive (OMP103; quick fix: remove the second).
double bias = 0.25;
#pragma omp declare target to(bias, bias) // expect: OMP103

// 9. 'to' on one directive and 'link' on another for the same variable (OMP104).
#pragma omp declare target link(bias) // expect: OMP104

// 10. A function in a 'link' clause (OMP112): link takes variables only.
#pragma omp declare target link(square) // expect: OMP112

// 11. 'indirect' with device_type(nohost) (OMP107; quick fix: device_type(any)).
double twice(double v) { return 2.0 * v; }
#pragma omp declare target to(twice) indirect device_type(nohost) // expect: OMP107

// 13. A declare variant whose selector puts 'kind' in the implementation set (OMP353; quick fix:
//     move it to the device set).
double scale_gpu(double v) { return gain * v; }
#pragma omp declare variant(scale_gpu) match(implementation = {kind(gpu)}) // expect: OMP353
double scale_any(double v) { return gain * v; }

// 14. adjust_args needs 'dispatch' in the construct set (OMP308; quick fix: add it).
void axpy_gpu(double *x, int n);
#pragma omp declare variant(axpy_gpu) match(device = {arch(nvptx)}) adjust_args(need_device_ptr: x) // expect: OMP308
void axpy(double *x, int n);

void compute(double *a, int n) {
  // 12. A local automatic variable in a declare target list (OMP114; quick fix: make it static).
  double local_scale = 3.0;
#pragma omp declare target(local_scale) // expect: OMP114

  // 7. A delimited region inside a function body (OMP008): it must be at file scope.
#pragma omp begin declare target // expect: OMP008
#pragma omp end declare target // expect: OMP008

  // 15. 'release' is a map type of 'target exit data', not of 'target' (OMP201).
#pragma omp target map(release: a[0:n]) // expect: OMP201
  a[0] = 0.0;

  // 16. The same variable mapped and firstprivate on one target construct (OMP207).
  double weight = 1.0;
#pragma omp target map(to: weight) firstprivate(weight) // expect: OMP207
  a[1] = weight;

  // 17. A nested teams with other code beside it (OMP215).
#pragma omp target map(tofrom: a[0:n]) // expect: OMP215
  {
    a[2] = 1.0;
#pragma omp teams
    a[3] = 2.0;
  }

#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = cube(shift(scale(a[i]))) + offset + square(1.0) + bias + local_scale * 0.0;
}

// 18. A host-only function called from device code (OMP401): it has no device version.
#pragma omp begin declare target device_type(host)
double log_value(double v) { return v; }
#pragma omp end declare target

// 19. A global read by a function that runs on the device but not declare target (OMP404; quick
//     fix: declare it target). Read directly inside a target region, it would be mapped instead.
double threshold = 0.5;
double clip(double v) { return v > threshold ? threshold : v; } // expect: OMP404

// 20. A device-only function called from host code (OMP402).
#pragma omp begin declare target device_type(nohost)
double fast_inv(double v) { return 1.0 / v; }
#pragma omp end declare target

void post(double *a, int n) {
#pragma omp target map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = clip(log_value(a[i])); // expect: OMP401
  a[0] = fast_inv(a[0]); // expect: OMP402
}

int main(void) {
  double a[N];
  for (int i = 0; i < N; ++i)
    a[i] = i * 1e-3;
  compute(a, N);
  post(a, N);
  printf("%f\n", a[N - 1]);
  return 0;
}
