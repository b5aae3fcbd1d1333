/* Device code calls damp, defined in kernels.c without declare target: the implied
 * declare target of the call only reaches definitions in this file, so the device link
 * fails with an undefined reference to damp (omp-lsp: OMP403 on the call). */
#include <stdio.h>

double damp(double v, double rate);

int main(void) {
  double v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  #pragma omp target teams distribute parallel for map(tofrom: v)
  for (int i = 0; i < 8; i++)
    v[i] = damp(v[i], 0.5);
  printf("%f\n", v[7]);
  return 0;
}
