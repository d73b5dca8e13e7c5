// sweep3d_bench: grind times of the 50^3 S6 P1 deck (the original's input50: mk 10, mmi 3,
// 12 iterations, fixups from iteration 8) on a 1 x P process grid, P = the number of ranks.
//
//   mpiexec -n 1 sweep3d_bench          mpiexec -n 2 sweep3d_bench --reps 5
//   (--help: the options and their ranges; a bad value is one line and exit 1 on every rank)
//
// Per kernel (reference, then the fast kernel for each instruction set this CPU has), the
// best of --reps runs of:
//   wall grind   elapsed time of the iteration loop / (its*it_g*jt_g*kt*mm*8), as the
//                original's "Wall grind time" but in ns
//   sweep grind  wall time in the sweeps only (max over ranks) / the same count
//   W_g          kernel time per cell-angle on a rank (mean over ranks), iterations
//                without and with fixups
// and whether err/fixs of every iteration and the balance agree bit for bit across kernels.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_table.hpp"
#include "instrument/recorder.hpp"
#include "instrument/run_app.hpp"
#include "instrument/run_results.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/sweep_kernel.hpp"
#include "sweep3d/work_figures.hpp"

namespace {

struct Row {
  std::string kernel;
  double wall = 1e300, sweep = 1e300, wg_nofix = 1e300, wg_fix = 1e300;
  std::vector<double> errs;
  sweep3d::Balance balance;
};

struct BenchOptions {
  int reps = 3, its = 12, threads = 1;
  bool no_reference = false;
};

// The command line, bound to `o` (every rank reads the same argv: run_app's verdict is
// collective, rank 0 prints the one line).
void declare_options(instrument::OptionTable& t, BenchOptions& o) {
  t.notes("Grind times of the 50^3 S6 P1 deck on a 1 x P process grid, P the number of ranks.")
      .whole("--reps", "N", o.reps, 1, 100, "", "runs per kernel, the best kept")
      .whole("--its", "N", o.its, 1, 1000, "",
             "source iterations a run (12: the original's; fixups from the 8th; 1000 take 10-20 s a run "
             "and kernel on one core: a benchmark needs no more)")
      .whole("--threads", "N", o.threads, 1, sweep3d::kMaxThreads, "", "OpenMP threads per rank (the kernel's limit)")
      .flag("--no-reference", o.no_reference, "time the fast kernels only");
}

int bench(const BenchOptions& options) {
  const int reps = options.reps, its = options.its, threads = options.threads;
  const bool reference = !options.no_reference;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string text = "1 " + std::to_string(size) + " 10 3 16\n50 50 50 6 1\n.1 .1 .1 -" +
                           std::to_string(its) + ".0\n0 0 0\n0 1 -7\n";

  std::vector<std::pair<sweep3d::KernelKind, const char*>> kernels;
  if (reference) kernels.emplace_back(sweep3d::KernelKind::reference, nullptr);
  for (const char* isa : {"sse2", "avx2", "avx512"})
    if (std::strcmp(sweep3d::fast_kernel_isa(isa), isa) == 0) kernels.emplace_back(sweep3d::KernelKind::fast, isa);

  std::vector<Row> rows;
  for (const auto& [kind, isa] : kernels) {
    Row row;
    for (int r = 0; r < reps; ++r) {
      instrument::Recorder rec;
      instrument::Comm comm(MPI_COMM_WORLD, rec);
      const sweep3d::Deck deck = sweep3d::distribute_deck_text(text, "input50", comm);
      sweep3d::RunOptions opt;
      opt.kernel = kind;
      opt.isa = isa;
      opt.threads = threads;
      const sweep3d::RunResult res = sweep3d::run_sweep3d(deck, comm, rec, opt);
      const instrument::RunResults gathered =
          instrument::gather_results(rec, instrument::make_run_info("sweep3d_bench", comm.mpi()), comm.mpi());
      row.kernel = res.kernel;
      const double cai = 1.0e-9 * res.iterations.size() * 50.0 * 50.0 * 50.0 * 6 * 8;
      row.wall = std::min(row.wall, res.elapsed_seconds / cai);
      if (rank == 0) {
        const sweep3d::WorkFigures w = sweep3d::work_figures(res, gathered);
        row.sweep = std::min(row.sweep, w.sweep_grind_ns);
        row.wg_nofix = std::min(row.wg_nofix, w.wg_nofix_ns.mean);
        if (w.wg_fix_ranks > 0) row.wg_fix = std::min(row.wg_fix, w.wg_fix_ns.mean);
      }
      row.errs.clear();
      for (const auto& it : res.iterations) row.errs.push_back(it.err);
      row.balance = res.balance;
    }
    rows.push_back(row);
  }
  if (rank == 0) {
    std::printf("Sweep3D grind times: 50x50x50 S6 P1, %d iterations (fixups from 8), %d x %d ranks, mk 10, mmi %d,"
                " %d thread(s) per rank, best of %d\n",
                its, 1, size, size == 1 ? 6 : 3, threads, reps);
    std::printf("ns per cell-angle-iteration (cell-angles = its*50^3*6*8)\n");
    std::printf("%-12s %12s %12s %14s %14s %10s\n", "kernel", "wall grind", "sweep grind", "W_g no fixup",
                "W_g fixup", "identical");
    for (const Row& r : rows) {
      bool same = r.errs == rows.front().errs && r.balance.source == rows.front().balance.source &&
                  r.balance.absorption == rows.front().balance.absorption &&
                  r.balance.leakage == rows.front().balance.leakage;
      char wg_fix[32] = "-";  // no iteration with fixups below --its 8
      if (r.wg_fix < 1e300) std::snprintf(wg_fix, sizeof wg_fix, "%.3f", r.wg_fix);
      std::printf("%-12s %12.3f %12.3f %14.3f %14s %10s\n", r.kernel.c_str(), r.wall, r.sweep, r.wg_nofix, wg_fix,
                  same ? "yes" : "NO");
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  BenchOptions o;
  instrument::OptionTable table("sweep3d_bench");
  declare_options(table, o);
  return instrument::run_app(argc, argv, table, [&] { return bench(o); });
}
