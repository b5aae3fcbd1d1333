/* Globals read by procedures that run on the device. Without declare target, the ones that
   need storage are undefined in the device link; constants, sizeof and the region's own
   (mapped) uses are not. omp-lsp's OMP404 must name exactly the undefined ones. */
#include <stdio.h>

int counter = 0;                           /* needs a device copy */
const int limit = 8;                       /* folded */
int *const none_ptr = 0;                   /* folded */
const double coeffs[3] = {1.0, 2.0, 3.0};  /* a const array is not folded */
const char *label = "x";                   /* the pointer itself is a variable */
double samples[16];                        /* only in sizeof: not used at run time */
double mapped = 1.5;                       /* read in the region itself: mapped */
int marked = 3;
#pragma omp declare target to(marked)

static int bump(int x) { return x + counter + limit + marked; }
static double weigh(int i) { return coeffs[i % 3] + (label[0] == 'x') + (none_ptr ? 1.0 : 0.0); }
static int count(void) { return (int)(sizeof(samples) / sizeof samples[0]); }

int main(void) {
  double r = 0.0;
#pragma omp target map(tofrom: r)
  r = bump(1) + weigh(2) + count() + mapped;
  printf("%f\n", r);
  return 0;
}
