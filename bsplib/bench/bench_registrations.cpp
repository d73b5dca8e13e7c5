// Registering and deregistering many areas: n bsp_push_reg calls and their bsp_sync, then n
// bsp_pop_reg calls and theirs, for n = 10k and 40k distinct addresses; the pops in reverse
// order (LIFO), in push order (FIFO), and in push order with process 0 registering NULL
// for every area (its pops of NULL pair with the others' pops, so the sync compares them
// one by one). Each time is the maximum over processes; median [min, max] over R
// repetitions, the orders taking turns.
// Usage: mpiexec -n P bench_registrations [R=5] [--lifo-fifo-only]
// (--lifo-fifo-only: without the NULL case, for a library that refuses pops of NULL in
// another order than LIFO, as this one did before 2026-12-01)
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

enum class Order { lifo, fifo, fifo_null_on_0 };
const char* name(Order o) {
  return o == Order::lifo ? "LIFO" : o == Order::fifo ? "FIFO" : "FIFO, NULL on process 0";
}

struct Times {
  double push, pop;  // seconds, calls and their sync, max over processes
};

Times push_then_pop(std::vector<char>& bytes, int n, Order order) {
  const bool null_here = order == Order::fifo_null_on_0 && bsp_pid() == 0;
  bsp_sync();
  double t0 = bsp_time();
  for (int i = 0; i < n; ++i) bsp_push_reg(null_here ? nullptr : &bytes[i], null_here ? 0 : 1);
  bsp_sync();
  const double push = bsp_time() - t0;
  t0 = bsp_time();
  for (int k = 0; k < n; ++k) {
    const int i = order == Order::lifo ? n - 1 - k : k;
    bsp_pop_reg(null_here ? nullptr : &bytes[i]);
  }
  bsp_sync();
  const double pop = bsp_time() - t0;
  return {instrument::max_over_ranks(push, MPI_COMM_WORLD),
          instrument::max_over_ranks(pop, MPI_COMM_WORLD)};
}

// At p = 1 the figures are the library's own bookkeeping (no exchange): meaningful.
int run(int reps, bool lifo_fifo_only) {
  const int orders_run = lifo_fifo_only ? 2 : 3;
  bsp_begin(bsp_nprocs());
  const int sizes[] = {10000, 40000};
  const Order orders[] = {Order::lifo, Order::fifo, Order::fifo_null_on_0};
  std::vector<char> bytes(40000);
  push_then_pop(bytes, 1000, Order::fifo);  // warm-up: the tables' first growth
  std::vector<double> push[2][3], pop[2][3];
  for (int r = 0; r < reps; ++r)
    for (int s = 0; s < 2; ++s)
      for (int o = 0; o < orders_run; ++o) {
        const Times t = push_then_pop(bytes, sizes[s], orders[o]);
        push[s][o].push_back(t.push);
        pop[s][o].push_back(t.pop);
      }
  if (bsp_pid() == 0) {
    std::printf("registrations, p = %d, median [min, max] over %d repetitions, max over "
                "processes:\n",
                bsp_nprocs(), reps);
    for (int s = 0; s < 2; ++s)
      for (int o = 0; o < orders_run; ++o) {
        const auto a = instrument::summarise(push[s][o]);
        const auto b = instrument::summarise(pop[s][o]);
        std::printf("  n = %5d  %-24s  pushes+sync %.4f s [%.4f, %.4f]  pops+sync %.4f s "
                    "[%.4f, %.4f]\n",
                    sizes[s], name(orders[o]), a.median, a.min, a.max, b.median, b.min,
                    b.max);
      }
  }
  bsp_end();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  bool lifo_fifo_only = false;
  instrument::OptionTable table("bench_registrations", "mpiexec -n P bench_registrations [R] [--lifo-fifo-only]");
  table.notes("Registering and deregistering many areas: bsp_push_reg and bsp_pop_reg of 10k and 40k\n"
              "addresses, the pops LIFO, FIFO, and FIFO with process 0 registering NULL.");
  bsplib_bench::count(table, "R", 1, 1000, reps, "repetitions");
  table
      .flag("--lifo-fifo-only", lifo_fifo_only,
            "without the NULL case (for a library that refuses pops of NULL in another order than LIFO)")
      .refuse_repeats();
  return instrument::run_app(argc, argv, table, [&] { return run(reps, lifo_fifo_only); });
}
