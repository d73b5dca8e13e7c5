// The cost of small supersteps, where l dominates: S supersteps in a row, each putting W
// 8-byte words into every-other word of the next process's area (bspbench's layout at
// p = 2), for W from 0 to 1024 (h up to 8 KiB). Steady state: nothing else runs between the
// supersteps. Prints the median superstep time (each process's median, the maximum over
// processes) against W.
// Usage: mpiexec -n P bench_small_supersteps [S=3000]
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "bench_options.hpp"
#include "bsp.h"
#include "instrument/mpi_main.hpp"
#include "instrument/run_app.hpp"
#include "instrument/rank_reduce.hpp"
#include "instrument/statistics.hpp"

namespace {

// At p = 1 the puts go to the process itself: the library's local cost per superstep.
int run(int steps) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid(), next = (s + 1) % p;
  const int max_words = 1024;
  std::vector<double> src(max_words, 1.0), dst(2 * max_words * p + 8);
  bsp_push_reg(dst.data(), static_cast<int>(dst.size() * sizeof(double)));
  bsp_sync();
  if (s == 0)
    std::printf("small supersteps, p = %d, %d supersteps each (median per process, max over "
                "processes):\n       W   h [bytes]   superstep [us]\n",
                p, steps);
  for (int words : {0, 1, 8, 32, 128, 256, 512, 1024}) {
    std::vector<double> t;
    for (int k = 0; k < steps + steps / 10; ++k) {
      const double t0 = bsp_time();
      for (int j = 0; j < words; ++j)
        bsp_put(next, &src[j], dst.data(), (s + 2 * p * j) * static_cast<int>(sizeof(double)),
                sizeof(double));
      bsp_sync();
      if (k >= steps / 10) t.push_back(bsp_time() - t0);  // the first tenth warms up
    }
    const double worst = instrument::max_over_ranks(instrument::median(t), MPI_COMM_WORLD);
    if (s == 0) std::printf("  %6d  %10d  %15.3f\n", words, words * 8, worst * 1e6);
  }
  bsp_pop_reg(dst.data());
  bsp_end();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 3000;
  instrument::OptionTable table("bench_small_supersteps", "mpiexec -n P bench_small_supersteps [S]");
  table.notes("The cost of small supersteps, where l dominates: S supersteps in a row, each putting W words\n"
              "into the next process, for W from 0 to 1024.");
  bsplib_bench::count(table, "S", 1, 10000000, steps, "supersteps");
  return instrument::run_app(argc, argv, table, [&] { return run(steps); });
}
