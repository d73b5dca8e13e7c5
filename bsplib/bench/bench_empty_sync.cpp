// Empty superstep time: N bsp_sync calls with no communication, repeated R times; each
// repetition's time per sync is the maximum over processes. Prints median [min, max] in us.
// Usage: mpiexec -n P bench_empty_sync [N=20000] [R=15]
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

// At p = 1 the figure is the library's own cost of a superstep (no message): meaningful.
int run(int n, int reps) {
  bsp_begin(bsp_nprocs());
  for (int i = 0; i < 2000; ++i) bsp_sync();  // warm-up
  std::vector<double> per_sync;
  for (int r = 0; r < reps; ++r) {
    bsp_sync();
    const double t0 = bsp_time();
    for (int i = 0; i < n; ++i) bsp_sync();
    per_sync.push_back(instrument::max_over_ranks((bsp_time() - t0) / n, MPI_COMM_WORLD));
  }
  if (bsp_pid() == 0) {
    const auto s = instrument::summarise(per_sync);
    std::printf("empty superstep, p = %d: median %.3f us  [min %.3f, max %.3f] over %d "
                "repetitions of %d syncs (max over processes)\n",
                bsp_nprocs(), s.median * 1e6, s.min * 1e6, s.max * 1e6, reps, n);
  }
  bsp_end();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 20000, reps = 15;
  instrument::OptionTable table("bench_empty_sync", "mpiexec -n P bench_empty_sync [N] [R]");
  table.notes("Empty superstep time: N bsp_sync calls with no communication, repeated R times.");
  bsplib_bench::count(table, "N", 1, 100000000, n, "bsp_sync calls a repetition");
  bsplib_bench::count(table, "R", 1, 10000, reps, "repetitions");
  return instrument::run_app(argc, argv, table, [&] { return run(n, reps); });
}
