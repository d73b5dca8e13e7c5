// Empty superstep time: N bsp_sync calls back to back with no communication, repeated R
// times; each repetition's time per sync (the mean over its N) is the maximum over
// processes. Prints median [min, max] in us; then the figure bspprobe reports as T(0),
// measured its way (in_sync_median), alone and after large supersteps.
// The header exchange's two routes within a node (bsplib/src/shared_headers.hpp) are taken
// in turn, each in an SPMD section of its own (BSP_SHARED_SYNC set before bsp_begin), for
// --rounds rounds, so that both see the same machine; the ratio of the medians ends the
// output. --route shared or --route mpi measures one route only.
// Usage: mpiexec -n P bench_empty_sync [N=20000] [R=15] [--route both|shared|mpi] [--rounds K=3]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "bsp.h"
#include "bsp_sections.hpp"
#include "bsp_sync_route.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/rank_reduce.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"

namespace {

enum class Route { both, shared, mpi };

// bspprobe's T(0) (bsplib/model/bsp_probe_measure.cpp), for comparison: the time inside
// bsp_sync of single empty supersteps, in blocks of 4 back to back (the first untimed), the
// smallest over processes (the last process to enter), the median over `blocks` blocks.
// With `after`, each block follows 4 supersteps of a 256 KiB h-relation of 8-byte puts to
// the next process, as T(0)'s blocks follow larger h in the probe's rounds.
double in_sync_median(int blocks, bool after, const std::vector<double>& src, double* area) {
  const int p = bsp_nprocs(), s = bsp_pid(), words = static_cast<int>(src.size());
  std::vector<double> mine;
  for (int b = 0; b < blocks; ++b) {
    for (int k = 0; after && k < 4; ++k) {
      for (int i = 0; i < words; ++i) bsp_put((s + 1) % p, &src[i], area, i * 8, 8);
      bsp_sync();
    }
    for (int k = 0; k < 4; ++k) {
      const double t0 = bsp_time();
      bsp_sync();
      if (k > 0) mine.push_back(bsp_time() - t0);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MIN,
                MPI_COMM_WORLD);
  return instrument::median(mine);
}

// One SPMD section on `route`'s headers: the median over reps of the time per sync.
double section(Route route, int n, int reps) {
  setenv("BSP_SHARED_SYNC", route == Route::mpi ? "0" : "1", 1);
  bsp_begin(bsp_nprocs());
  std::vector<double> src(32768, 1.0), area(src.size());
  bsp_push_reg(area.data(), static_cast<int>(area.size() * sizeof(double)));
  for (int i = 0; i < 2000; ++i) bsp_sync();  // warm-up
  std::vector<double> per_sync;
  for (int r = 0; r < reps; ++r) {
    bsp_sync();
    const double t0 = bsp_time();
    for (int i = 0; i < n; ++i) bsp_sync();
    per_sync.push_back(instrument::max_over_ranks((bsp_time() - t0) / n, MPI_COMM_WORLD));
  }
  // Where shared memory cannot serve (p = 1, processes on several nodes) the section ran by
  // MPI whatever was asked; say which route the figure is.
  const bool shared = bsplib::shared_header_exchanges() > 0;
  const auto s = instrument::summarise(per_sync);
  const double alone = in_sync_median(200, false, src, area.data());
  const double after = in_sync_median(200, true, src, area.data());
  if (bsp_pid() == 0)
    std::printf("empty superstep, p = %d, headers %s: median %.3f us  [min %.3f, max %.3f] over "
                "%d repetitions of %d syncs (max over processes)\n",
                bsp_nprocs(), bsp_nprocs() == 1 ? "not exchanged" : shared ? "through shared memory" : "by MPI",
                s.median * 1e6, s.min * 1e6, s.max * 1e6, reps, n);
  if (bsp_pid() == 0)
    std::printf("  as bspprobe's T(0) (time in bsp_sync, last process to enter, median of 600 "
                "supersteps in blocks): %.3f us; after 256 KiB h-relations: %.3f us\n",
                alone * 1e6, after * 1e6);
  bsp_pop_reg(area.data());
  bsp_end();
  bsplib::allow_next_section();
  return s.median;
}

int run(Route route, int n, int reps, int rounds) {
  int pid = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &pid);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p == 1) route = Route::mpi;  // no headers to exchange: one section a round
  std::vector<double> shared, mpi;
  for (int k = 0; k < rounds; ++k) {
    if (route != Route::mpi) shared.push_back(section(Route::shared, n, reps));
    if (route != Route::shared) mpi.push_back(section(Route::mpi, n, reps));
  }
  if (pid == 0 && !shared.empty() && !mpi.empty())
    std::printf("shared memory / MPI headers: %.2f (medians of the %d rounds' medians: %.3f / "
                "%.3f us)\n",
                instrument::median(shared) / instrument::median(mpi), rounds,
                instrument::median(shared) * 1e6, instrument::median(mpi) * 1e6);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 20000, reps = 15, rounds = 3;
  Route route = Route::both;
  instrument::OptionTable table(
      "bench_empty_sync",
      "mpiexec -n P bench_empty_sync [N] [R] [--route both|shared|mpi] [--rounds K]");
  table.notes(
      "Empty superstep time: N bsp_sync calls with no communication, repeated R times; the "
      "time per sync is the mean over N, the largest over processes; median [min, max] over "
      "R. Each route of bsp_sync's header exchange runs in an SPMD section of its own, in "
      "turn, K rounds (BSP_SHARED_SYNC set before each bsp_begin).");
  bsplib_bench::count(table, "N", 1, 100000000, n, "bsp_sync calls a repetition");
  bsplib_bench::count(table, "R", 1, 10000, reps, "repetitions");
  table.choice("--route", "ROUTE", route,
               {{"both", Route::both}, {"shared", Route::shared}, {"mpi", Route::mpi}},
               "the header exchange's route: both in turn (default), shared memory, or MPI");
  table.whole("--rounds", "K", rounds, 1, 1000, "", "rounds of the routes taken in turn");
  return instrument::run_app(argc, argv, table, [&] { return run(route, n, reps, rounds); });
}
