// device_functions.cpp: functions and a global variable made available on the device with
// begin/end declare target, called from a target region.
//
// Build and run:
//   clang++-22 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu device_functions.cpp -o device_functions
//   OMP_TARGET_OFFLOAD=MANDATORY ./device_functions
#include <cmath>
#include <cstdio>
#include <omp.h>
#include <vector>

#pragma omp begin declare target
// A declare target global: one copy on the host, one on each device.
double g_scale = 1.0;

struct Particle {
  double x, y, vx, vy;
};

// Everything defined between begin and end is compiled for the device too,
// including templates and member functions.
template <typename T>
T clamp(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

inline double speed(const Particle &p) { return std::sqrt(p.vx * p.vx + p.vy * p.vy); }

inline void advance(Particle &p, double dt) {
  p.x = clamp(p.x + g_scale * p.vx * dt, -100.0, 100.0);
  p.y = clamp(p.y + g_scale * p.vy * dt, -100.0, 100.0);
}
#pragma omp end declare target

int main() {
  const int n = 10000;
  std::vector<Particle> ps(n);
  for (int i = 0; i < n; ++i)
    ps[i] = Particle{0.0, 0.0, 1.0 + i % 3, 0.5 * (i % 5)};

  // Change the global on the host, then copy it to the device copy.
  g_scale = 0.5;
#pragma omp target update to(g_scale)

  Particle *p = ps.data();
  double fastest = 0.0;
  int on_device = 0;
#pragma omp target teams distribute parallel for map(tofrom: p[0:n]) reduction(max: fastest) \
    map(tofrom: on_device)
  for (int i = 0; i < n; ++i) {
    for (int step = 0; step < 100; ++step)
      advance(p[i], 0.01);
    fastest = std::fmax(fastest, speed(p[i]));
    if (i == 0)
      on_device = !omp_is_initial_device();
  }

  std::printf("particle 7 at (%.3f, %.3f), fastest %.3f, ran on %s\n", ps[7].x, ps[7].y, fastest,
              on_device ? "the device" : "the host");
  // Expected: particle 7 has velocity (2, 1) and moves 100 steps of 0.01 * 0.5 * velocity: (1, 0.5).
  return std::fabs(ps[7].x - 1.0) < 1e-9 && std::fabs(ps[7].y - 0.5) < 1e-9 ? 0 : 1;
}
