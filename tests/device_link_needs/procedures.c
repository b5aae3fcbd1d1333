/* Procedures device code needs but cannot have: a device_type(host) procedure (OMP401) and one
   no file of the program defines, which a library's header declares (OMP407). The device link
   misses exactly these two. */
#include <math.h>
#include <stdio.h>
#include "library.h"

#pragma omp begin declare target device_type(host)
double host_log(double x) { return x; }
#pragma omp end declare target

double step(double x) { return host_log(x) + from_a_library(x) + sqrt(x); }

int main(void) {
  double r = 4.0;
#pragma omp target map(tofrom: r)
  r = step(r);
  printf("%f\n", r);
  return 0;
}
