// Cost of one 8-byte bsp_put in a large h-relation: every process puts W words, spread
// cyclically over the other processes (itself when p = 1), in one superstep; the time of
// that superstep minus an empty superstep's, divided by W. Two patterns: consecutive words
// per destination (bspbench's pattern; the library merges them) and scattered words (a
// stride permutation, so every put is its own record). Median [min, max] over R repetitions,
// each the maximum over processes.
// Usage: mpiexec -n P bench_put_words [W=262144] [R=11]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_stats.hpp"
#include "bsp.h"

namespace {

double max_over_processes(double t) {
  double m = 0;
  MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

// Where each of the W words goes, computed before timing so that the timed loop is the
// puts alone (a division per put would cost as much as the put).
struct Pattern {
  std::vector<int> dest, offset;
};

Pattern make_pattern(int words, bool scattered) {
  const int p = bsp_nprocs(), s = bsp_pid();
  const int others = p > 1 ? p - 1 : 1;
  const int per_dest = words / others;
  Pattern pat;
  for (int i = 0; i < words; ++i) {
    const int k = i % others, j = i / others;  // word j of destination k
    // scattered: a stride of 7 words (odd: a permutation of the destination's words)
    const int slot = scattered ? static_cast<int>((7LL * j) % per_dest) : j;
    pat.dest.push_back(p > 1 ? (s + 1 + k) % p : s);
    pat.offset.push_back((s * per_dest + slot) * 8);
  }
  return pat;
}

// One superstep of W word puts; returns its time on this process.
double superstep(const std::vector<double>& src, double* dst, const Pattern& pat) {
  const int words = static_cast<int>(pat.dest.size());
  const int* dest = pat.dest.data();
  const int* offset = pat.offset.data();
  bsp_sync();
  const double t0 = bsp_time();
  for (int i = 0; i < words; ++i) bsp_put(dest[i], &src[i], dst, offset[i], 8);
  bsp_sync();
  return bsp_time() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  int words = argc > 1 ? std::atoi(argv[1]) : 262144;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 11;
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs();
  const int others = p > 1 ? p - 1 : 1;
  words = words / others * others;
  if ((words / others) % 7 == 0) words += others;  // keep the stride a permutation
  std::vector<double> src(words, 1.0);
  std::vector<double> dst(static_cast<std::size_t>(words / others) * p + 8);
  bsp_push_reg(dst.data(), static_cast<int>(dst.size() * sizeof(double)));
  bsp_sync();
  const Pattern pc = make_pattern(words, false), ps = make_pattern(words, true);
  std::vector<double> empty, consecutive, scattered;
  for (int r = 0; r < reps + 1; ++r) {
    bsp_sync();
    double t0 = bsp_time();
    for (int i = 0; i < 100; ++i) bsp_sync();
    const double e = max_over_processes((bsp_time() - t0) / 100);
    const double c = max_over_processes(superstep(src, dst.data(), pc));
    const double s = max_over_processes(superstep(src, dst.data(), ps));
    if (r == 0) continue;  // warm-up: buffers grow
    empty.push_back(e);
    consecutive.push_back((c - e) / words);
    scattered.push_back((s - e) / words);
  }
  if (bsp_pid() == 0) {
    const auto e = bspbench::spread(empty), c = bspbench::spread(consecutive),
               s = bspbench::spread(scattered);
    std::printf("8-byte puts, p = %d, %d puts per process per superstep (h = %d bytes):\n", p,
                words, words * 8);
    std::printf("  consecutive words: median %.2f ns per put  [min %.2f, max %.2f]\n",
                c.median * 1e9, c.min * 1e9, c.max * 1e9);
    std::printf("  scattered words:   median %.2f ns per put  [min %.2f, max %.2f]\n",
                s.median * 1e9, s.min * 1e9, s.max * 1e9);
    std::printf("  (empty superstep subtracted: median %.2f us; %d repetitions, max over "
                "processes)\n",
                e.median * 1e6, reps);
  }
  bsp_pop_reg(dst.data());
  bsp_end();
  return 0;
}
