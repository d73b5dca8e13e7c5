// One-way puts of sizes next to each other (by default powers of two and 8 bytes more:
// 32768/32776, 65536/65544, 131072/131080 B), as bspprobe's one-way curve times them: each
// process of the lower half puts h bytes into its partner in the upper half, in blocks of
// four supersteps (the first of a block not timed), the sizes taking turns within every
// repetition so that a slow spell of the host spreads over all of them. Prints per size the
// median over repetitions of the superstep's comm+sync, both the smallest time over
// processes (what the probe records) and the largest, the put call itself (the copy at the
// call), and each size's ratio to the size before it.
// Usage: mpiexec -n P bench_put_sizes [R=200] [h1 h2 ...]   (BSP_SHARED_PUTS=0: MPI route)
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_options.hpp"
#include "bsp.h"
#include "instrument/mpi_main.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"

namespace {

constexpr int block = 4;

struct Samples {
  std::vector<double> sync_min, sync_max, call;
};

void one_block(const std::vector<char>& src, std::vector<char>& area, int h, Samples& out) {
  const int p = bsp_nprocs(), s = bsp_pid(), half = p / 2;
  for (int k = 0; k < block; ++k) {
    const double c0 = bsp_time();
    if (s < half) bsp_put(s + half, src.data(), area.data(), 0, h);
    const double t0 = bsp_time();
    bsp_sync();
    double t[2] = {bsp_time() - t0, -(bsp_time() - t0)};
    double call = t0 - c0;
    if (k == 0) continue;
    MPI_Allreduce(MPI_IN_PLACE, t, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &call, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    out.sync_min.push_back(t[0]);
    out.sync_max.push_back(-t[1]);
    out.call.push_back(call);
  }
}

// The lower half of the processes puts into the upper half: p = 1 has no pair, refused.
int run(int reps, std::vector<int> sizes) {
  bsplib_bench::require_processes(2, "each process of the lower half puts into one of the upper half");
  if (sizes.empty()) sizes = {32768, 32776, 65536, 65544, 131072, 131080};
  int hmax = 0;
  for (int h : sizes)
    if (h > hmax) hmax = h;
  bsp_begin(bsp_nprocs());
  std::vector<char> src(static_cast<std::size_t>(hmax), 1), area(static_cast<std::size_t>(hmax), 0);
  bsp_push_reg(area.data(), hmax);
  bsp_sync();
  std::vector<Samples> samples(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {  // warm-up: the segment's growth
    Samples ignored;
    one_block(src, area, sizes[i], ignored);
  }
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < sizes.size(); ++i) one_block(src, area, sizes[i], samples[i]);
  if (bsp_pid() == 0) {
    const char* route = std::getenv("BSP_SHARED_PUTS");
    std::printf("one-way puts, p = %d, %s route, medians over %d repetitions x %d "
                "supersteps (us):\n",
                bsp_nprocs(), route && route[0] == '0' ? "MPI" : "shared-segment", reps,
                block - 1);
    std::printf("  %9s  %10s  %10s  %10s  %s\n", "h [B]", "sync (min)", "sync (max)",
                "put call", "min / previous size's");
    double previous = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const double lo = instrument::median(samples[i].sync_min);
      const double hi = instrument::median(samples[i].sync_max);
      const double call = instrument::median(samples[i].call);
      std::printf("  %9d  %10.2f  %10.2f  %10.2f", sizes[i], lo * 1e6, hi * 1e6, call * 1e6);
      if (previous > 0) std::printf("  %.2f", lo / previous);
      std::printf("\n");
      previous = lo;
    }
  }
  bsp_pop_reg(area.data());
  bsp_sync();
  bsp_end();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 200;
  std::vector<int> sizes;
  instrument::OptionTable table("bench_put_sizes", "mpiexec -n P bench_put_sizes [R] [h1 h2 ...]");
  table.notes("One-way puts of sizes next to each other, as bspprobe's one-way curve times them\n"
              "(BSP_SHARED_PUTS=0: the MPI route).");
  bsplib_bench::count(table, "R", 1, 100000, reps, "repetitions");
  bsplib_bench::rest(table, "h", 1, 1 << 28, sizes,
                     "put sizes in bytes (default: 32768 32776 65536 65544 131072 131080)");
  return instrument::run_app(argc, argv, table, [&] { return run(reps, sizes); });
}
