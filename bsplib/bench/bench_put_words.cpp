// Cost of one 8-byte bsp_put in a large h-relation: every process puts W words, spread
// cyclically over the other processes (itself when p = 1), in one superstep; the time of
// that superstep minus an empty superstep's, divided by W, and its two parts: the put calls
// (the loop alone) and the bsp_sync that delivers them. Three destination patterns:
//  - bspbench: bspbench's h-relation (word j to another process lands at index s + j p of
//    its array: interleaved, stride p words);
//  - consecutive: word j lands at index s W/(p-1) + j (adjacent words);
//  - random: a random permutation of the destination's words (no two puts adjacent or
//    evenly spaced, so every put is a record of its own: the general path).
// Median [min, max] over R repetitions, each the maximum over processes. Each repetition
// also times an in-cache DAXPY (the slowest process's rate): on a shared host the CPU
// itself slows down at times, and this shows when a slow figure is the CPU's, not the
// library's.
// Usage: mpiexec -n P bench_put_words [W=262144] [R=11]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <numeric>
#include <random>
#include <vector>

#include "bench_options.hpp"
#include "bsp.h"
#include "instrument/mpi_main.hpp"
#include "instrument/run_app.hpp"
#include "instrument/rank_reduce.hpp"
#include "instrument/statistics.hpp"

namespace {

using instrument::max_over_ranks;
using instrument::summarise;

enum class Layout { bspbench, consecutive, random };
const char* name(Layout l) {
  return l == Layout::bspbench ? "bspbench" : l == Layout::consecutive ? "consecutive" : "random";
}

// Where each of the W words goes, computed before timing so that the timed loop is the
// puts alone (a division per put would cost as much as the put).
struct Pattern {
  std::vector<int> dest, offset;
};

Pattern make_pattern(int words, Layout layout) {
  const int p = bsp_nprocs(), s = bsp_pid();
  const int others = p > 1 ? p - 1 : 1;
  const int per_dest = words / others;
  std::vector<int> perm(per_dest);
  std::iota(perm.begin(), perm.end(), 0);
  std::mt19937 rng(12345u + static_cast<unsigned>(s));
  if (layout == Layout::random) std::shuffle(perm.begin(), perm.end(), rng);
  Pattern pat;
  for (int i = 0; i < words; ++i) {
    const int k = i % others, j = i / others;  // word j to the k-th other process
    pat.dest.push_back(p > 1 ? (s + 1 + k) % p : s);
    const int index = layout == Layout::bspbench ? s + j * p : s * per_dest + perm[j];
    pat.offset.push_back(index * 8);
  }
  return pat;
}

// Flop/s of y += a x on 1024 doubles, 2000 passes: the speed of this process's CPU now.
double daxpy_rate() {
  static std::vector<double> x(1024, 1.0), y(1024, 0.0);
  const double t0 = bsp_time();
  for (int k = 0; k < 2000; ++k) {
    for (std::size_t i = 0; i < x.size(); ++i) y[i] += 1e-9 * x[i];
    asm volatile("" : : "r"(y.data()) : "memory");
  }
  return 2.0 * 1024 * 2000 / (bsp_time() - t0);
}

struct Step {
  double calls, sync;  // this process's put loop and the bsp_sync after it
};

Step superstep(const std::vector<double>& src, double* dst, const Pattern& pat) {
  const int words = static_cast<int>(pat.dest.size());
  const int* dest = pat.dest.data();
  const int* offset = pat.offset.data();
  bsp_sync();
  const double t0 = bsp_time();
  for (int i = 0; i < words; ++i) bsp_put(dest[i], &src[i], dst, offset[i], 8);
  const double t1 = bsp_time();
  bsp_sync();
  return Step{t1 - t0, bsp_time() - t1};
}

// At p = 1 the puts go to the process itself (documented above): the library's local cost.
// W up to 2^24: the source, destination and three patterns take about 40 W bytes.
int run(int words, int reps) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (words < world - 1)
    throw instrument::CollectiveError("command line:W: expected at least p - 1 = " +
                                      std::to_string(world - 1) +
                                      " words (one to each other process), got " +
                                      std::to_string(words));
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs();
  const int others = p > 1 ? p - 1 : 1;
  words = words / others * others;
  std::vector<double> src(words, 1.0);
  // bspbench's layout needs s + (W/(p-1) - 1) p + 1 words; the others W/(p-1) p.
  const std::size_t n_dst = static_cast<std::size_t>(words / others + 1) * p;
  std::vector<double> dst(n_dst);
  bsp_push_reg(dst.data(), static_cast<int>(dst.size() * sizeof(double)));
  bsp_sync();
  const Layout layouts[] = {Layout::bspbench, Layout::consecutive, Layout::random};
  std::vector<Pattern> patterns;
  for (Layout l : layouts) patterns.push_back(make_pattern(words, l));
  std::vector<double> empty, rate;
  std::vector<std::vector<double>> total(3), calls(3), sync(3);
  for (int r = 0; r < reps + 1; ++r) {
    bsp_sync();
    double t0 = bsp_time();
    for (int i = 0; i < 100; ++i) bsp_sync();
    const double e = max_over_ranks((bsp_time() - t0) / 100, MPI_COMM_WORLD);
    const double min_rate = instrument::min_over_ranks(daxpy_rate(), MPI_COMM_WORLD);
    if (r > 0) {
      empty.push_back(e);
      rate.push_back(min_rate);
    }
    for (int k = 0; k < 3; ++k) {
      const Step st = superstep(src, dst.data(), patterns[k]);
      const double c = max_over_ranks(st.calls, MPI_COMM_WORLD);
      const double sy = max_over_ranks(st.sync, MPI_COMM_WORLD);
      const double t = max_over_ranks(st.calls + st.sync, MPI_COMM_WORLD);
      if (r == 0) continue;  // warm-up: buffers grow
      total[k].push_back((t - e) / words);
      calls[k].push_back(c / words);
      sync[k].push_back((sy - e) / words);
    }
  }
  if (bsp_pid() == 0) {
    std::printf("8-byte puts, p = %d, %d puts per process per superstep (h = %d bytes), "
                "ns per put:\n",
                p, words, words * 8);
    std::printf("  %-12s %8s %18s %8s %8s\n", "layout", "median", "[min, max]", "calls",
                "sync");
    for (int k = 0; k < 3; ++k) {
      const auto t = summarise(total[k]), c = summarise(calls[k]), s = summarise(sync[k]);
      std::printf("  %-12s %8.2f   [%6.2f, %6.2f] %8.2f %8.2f\n", name(layouts[k]),
                  t.median * 1e9, t.min * 1e9, t.max * 1e9, c.median * 1e9, s.median * 1e9);
    }
    const auto e = summarise(empty), d = summarise(rate);
    std::printf("  (medians of %d repetitions, each the max over processes; calls and sync "
                "medians separately; empty superstep %.2f us subtracted)\n",
                reps, e.median * 1e6);
    std::printf("  CPU speed meanwhile: in-cache DAXPY %.2f Gflop/s [%.2f, %.2f] (slowest "
                "process); a bspbench-layout put = %.0f flop times\n",
                d.median * 1e-9, d.min * 1e-9, d.max * 1e-9,
                summarise(total[0]).median * d.median);
  }
  bsp_pop_reg(dst.data());
  bsp_end();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int words = 262144, reps = 11;
  instrument::OptionTable table("bench_put_words", "mpiexec -n P bench_put_words [W] [R]");
  table.notes("The cost of one 8-byte bsp_put in a large h-relation of W words a process.");
  bsplib_bench::count(table, "W", 1, 1 << 24, words, "words each process puts");
  bsplib_bench::count(table, "R", 1, 10000, reps, "repetitions");
  return instrument::run_app(argc, argv, table, [&] { return run(words, reps); });
}
