// multigrid_setup_bench: the multigrid program's set-up (issue 40: at most 10 W-cycles of the
// problem it builds), phase by phase, built again and again in one process, so that a change
// to one phase is measured in milliseconds that a whole run's noise (first touches of memory
// the host took back, the vCPUs' placement) would hide. Under mpirun -np P each process builds
// its own share (rank r of P parts) at the same time as the others, as the program does, but
// without the program's supersteps (load_problem's collective verdict aside): the phases that
// exchange (the registration, the load's and diagonal's shared-node sums, the Lanczos
// estimate of lambda_max) are not here. The cell sums are: the load's with the finest grid's
// diagonal in its pass (add_cell_load, as the program makes them since 2026-12-06: earlier
// figures of "load cell sums" have no diagonal in them), the coarser grids' diagonals
// (add_cell_diagonal), and, apart from the set-up's sum, the error norm's the program makes
// after its cycles (cell_l2_error_squared).
//
// Each repetition builds everything from the coarse cube, the previous repetition's grids
// and levels freed first. The first repetition is shown apart (its memory is touched for the
// first time; later ones reuse what the heap kept, so a change that writes less memory gains
// less here than in a run); the others give the median and the spread per phase. Rank 0
// prints its own figures and the slowest rank's median set-up.
//
// Usage: [mpirun -np P] multigrid_setup_bench [--cube N] [--grids G] [--reps R]
// Defaults: 10, 4, 7 (the out-of-cache size issue 40 names; --cube 8 is its 1.57M cells).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include <mpi.h>

#include "instrument/clock.hpp"
#include "instrument/heap_reuse.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"
#include "multigrid/driver.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/p1_operator.hpp"
#include "multigrid/setup_clock.hpp"

namespace {

struct Options {
  int cube = 10, grids = 4, reps = 7;
};

void declare_options(instrument::OptionTable& t, Options& o) {
  t.notes("The multigrid set-up's phases, built again and again in one process (each rank its share of P).")
      .whole("--cube", "N", o.cube, 1, 200, "(cubes per side)", "the Kuhn cube's cubes per side")
      .whole("--grids", "G", o.grids, 1, 8, "(grids)", "grids, the coarse cube refined G - 1 times")
      .whole("--reps", "R", o.reps, 2, 1000, "", "set-ups built, the first shown apart");
}

double sine_pi(double t) { return std::sin(std::numbers::pi * t); }

// One set-up of rank `me` of `p`, phase by phase, as the multigrid program makes it: its
// input (mg::load_problem: the cube, the refinement, METIS, the inheritance, the split and
// check of this process's parents of the finest grid), its levels, the load and the diagonal (driver.cpp);
// then, apart (not set-up: the program makes them after its cycles), the error norm's cell
// sums.
mg::SetupClock one_setup(const Options& o, int me, int p, double& checksum, double& error_norm_seconds) {
  mg::RunOptions run;
  run.cube = o.cube;
  run.grids = o.grids;
  mg::ProblemInput in = mg::load_problem(run);
  mg::SetupClock clock = in.setup;
  std::vector<mg::LocalLevel> levels = mg::number_local_levels(in.grids, in.parts, me, p, &clock);
  // As the program does (solve_in_section on the input it gives up): the grids freed before
  // the levels' vectors and loose cells' batches are written.
  std::vector<mg::Grid>().swap(in.grids);
  std::vector<std::vector<std::int32_t>>().swap(in.parts);
  mg::batch_local_levels(levels, &clock);
  mg::LocalLevel& F = levels.back();
  {
    // As the program does: the finest grid's diagonal in the load's pass over its cells.
    mg::SetupTimer t(&clock, "load cell sums");
    mg::add_cell_load(F, mg::ProductFunction{3 * std::numbers::pi * std::numbers::pi, sine_pi}, F.b.data(),
                      mg::fastest_cell_kernel(), F.diag_inv.data());
  }
  {
    mg::SetupTimer t(&clock, "coarser diagonal sums");
    for (std::size_t l = 0; l + 1 < levels.size(); ++l) mg::add_cell_diagonal(levels[l], levels[l].diag_inv.data());
  }
  const double t0 = instrument::now_seconds();
  checksum = mg::cell_l2_error_squared(F, F.b.data(), mg::ProductFunction{1.0, sine_pi});
  error_norm_seconds = instrument::now_seconds() - t0;
  for (std::size_t s = 0; s < F.n_local; ++s) checksum += F.b[s] + F.diag_inv[s];
  return clock;
}

int run(const Options& o) {
  int p = 1, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> ms;  // per phase, the repetitions after the first
  std::map<std::string, double> first;
  std::vector<double> totals, error_norm;
  double checksum = 0, first_total = 0, first_error_norm = 0;
  for (int r = 0; r < o.reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double error_norm_seconds = 0;
    const mg::SetupClock clock = one_setup(o, me, p, checksum, error_norm_seconds);
    (r == 0 ? first_error_norm : error_norm.emplace_back()) = 1e3 * error_norm_seconds;
    for (const auto& [phase, s] : clock.seconds) {
      if (r == 0) {
        order.push_back(phase);
        first[phase] = 1e3 * s;
      } else {
        ms[phase].push_back(1e3 * s);
      }
    }
    (r == 0 ? first_total : totals.emplace_back()) = 1e3 * clock.total();
  }
  const double my_median = instrument::median(totals);
  double slowest = my_median;
  MPI_Reduce(&my_median, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (me != 0) return 0;
  std::printf("multigrid_setup_bench: --cube %d --grids %d, rank 0 of %d, %d set-ups (the first apart)\n", o.cube,
              o.grids, p, o.reps);
  std::printf("%-22s %10s %10s %10s %10s\n", "phase [ms]", "first", "median", "min", "max");
  for (const std::string& phase : order) {
    const instrument::Summary s = instrument::summarise(ms[phase]);
    std::printf("%-22s %10.2f %10.2f %10.2f %10.2f\n", phase.c_str(), first[phase], s.median, s.min, s.max);
  }
  const instrument::Summary t = instrument::summarise(totals);
  std::printf("%-22s %10.2f %10.2f %10.2f %10.2f\n", "set-up", first_total, t.median, t.min, t.max);
  const instrument::Summary e = instrument::summarise(error_norm);
  std::printf("%-22s %10.2f %10.2f %10.2f %10.2f  (after the cycles, not set-up)\n", "error-norm cell sums",
              first_error_norm, e.median, e.min, e.max);
  std::printf("slowest rank's median set-up: %.2f ms\n", slowest);
  std::printf("checksum (the same for every build of one --cube, --grids and P): %.17g\n", checksum);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  instrument::reuse_freed_memory();  // as the multigrid program does (heap_reuse.hpp)
  Options o;
  instrument::OptionTable table("multigrid_setup_bench", "[mpirun -np P] multigrid_setup_bench [options]");
  declare_options(table, o);
  return instrument::run_app(argc, argv, table, [&] { return run(o); });
}
