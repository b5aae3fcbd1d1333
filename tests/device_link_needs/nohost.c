/* device_type(nohost) procedures referenced from host code: clang (with an offload target)
   rejects each reference, and OMP402 reports each one; device code may call them. */
#pragma omp begin declare target device_type(nohost)
int fast_inv(int x) { return 1 - x; }
#pragma omp end declare target

int helper(int x) { return fast_inv(x); }            /* implied any: its host version calls it */

#pragma omp begin declare target
int both(int x) { return fast_inv(x) + 1; }          /* explicit any */
#pragma omp end declare target

int main(void) {
  int r = fast_inv(1);                                 /* plain host code */
#pragma omp target map(tofrom: r)
  r = helper(r) + both(r) + fast_inv(r);               /* device code: fine */
  return r;
}
