// multigrid: W-cycles of an unstructured tetrahedral multigrid smoother on our BSPlib, with
// eq. 5 and the profiler's replay beside the measured cycle. Usage: see --help, README.md.
#include <mpi.h>

#include <optional>
#include <iostream>
#include <string>
#include <utility>

#include "bsplib/model/bsp_short_probe.hpp"
#include "instrument/calibration_reader.hpp"
#include "instrument/core_round_trip.hpp"
#include "instrument/error.hpp"
#include "instrument/heap_reuse.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_cache.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/phase_table.hpp"
#include "instrument/recorder.hpp"
#include "instrument/run_app.hpp"
#include "instrument/run_results.hpp"
#include "instrument/speed_check.hpp"
#include "instrument/uneven_cpus.hpp"
#include "multigrid/driver.hpp"
#include "multigrid/model_report.hpp"
#include "multigrid/results_output.hpp"
#include "multigrid/speed_check.hpp"

namespace {

struct Options {
  mg::RunOptions run;
  std::string results = "multigrid.h5", machine;
  std::vector<std::string> calibration, replay_on;
  bool no_machine = false;  // --no-machine: no models, so no probe either
};

// The command line, bound to `o`.
void declare_options(instrument::OptionTable& t, Options& o) {
  mg::CycleOptions& c = o.run.cycle;
  t.positional_file("MESH", o.run.mesh_path, instrument::Arity::optional,
                    "the coarsest grid: Tycho2 .smesh or Gmsh .msh (default: the unit cube cut into --cube N^3 "
                    "cubes of 6 tetrahedra)")
      .whole("--cube", "N", o.run.cube, 1, 200, "(cubes per side)", "the default cube's cubes per side (4: 384 cells)")
      .whole("--grids", "N", o.run.grids, 1, 8, "(grids)", "grids, each a uniform refinement of the last")
      .text("--mesh-sequence", "A,B[,..]",
            [&o](const std::string& n, const std::string& v) {
              o.run.mesh_sequence = instrument::file_list_option(n, v);
              if (o.run.mesh_sequence.size() < 2)
                throw instrument::InputError("command line", n,
                                             "expected two meshes or more, coarsest first, separated by commas");
            },
            "independent meshes of one domain, coarsest first, instead of MESH and its refinements; transfers "
            "by point location")
      .input_file("--partition", "FILE", o.run.partition_path,
                  "the part of each cell of the finest grid (default: METIS k-way into P)")
      .whole("--cycles", "N", o.run.cycles, 1, 10000, "(cycles)", "cycles to run")
      .choice("--cycle", "W|V", c.gamma, {{"W", 2}, {"V", 1}}, "W-cycle or V-cycle")
      .choice("--smoother", "S", c.smoother, {{"chebyshev", mg::Smoother::chebyshev}, {"jacobi", mg::Smoother::jacobi}},
              "chebyshev or jacobi (damped), polynomials in D^-1 A")
      .whole("--pre", "N", c.pre, 0, 100, "(smoothing iterations)", "smoothing iterations before the coarse correction")
      .whole("--post", "N", c.post, 0, 100, "(smoothing iterations)", "smoothing iterations after the coarse correction")
      .whole("--coarse-iterations", "N", c.coarse_iterations, 1, 100000, "(smoothing iterations)",
             "smoothing iterations on the coarsest grid per visit")
      .real("--smoothing-lower", "F", c.smoothing_lower, 0.01, 0.9, "(of lambda_max)",
            "the smoothers aim at the eigenvalues of D^-1 A in [F lambda_max, lambda_max] (0.1 with --pre 3 "
            "--post 3 for gmsh's meshes)")
      .text("--cell-kernel", "K",
            [&c](const std::string& s, const std::string& v) {
              bool known = false;
              std::string here;  // the builds that run here
              for (mg::CellKernel k : {mg::CellKernel::avx512, mg::CellKernel::avx2, mg::CellKernel::portable}) {
                const bool runs = mg::cell_kernel_runs_here(k);
                if (runs) here += std::string(here.empty() ? "" : ", ") + mg::cell_kernel_name(k);
                if (v != mg::cell_kernel_name(k)) continue;
                known = true;
                if (runs) c.cell_kernel = k;
              }
              if (!known)
                throw instrument::InputError("command line", s,
                                             "expected avx512, avx2 or portable, got " + instrument::quote_token(v));
              if (v != mg::cell_kernel_name(c.cell_kernel))
                throw instrument::InputError("command line", s,
                                             "a build that runs here (" + here + "; " + v +
                                                 " is not built in, or this CPU lacks it), got " + instrument::quote_token(v));
            },
            "the cell loop's build: avx512, avx2 or portable; the same bits whichever")
      .shown_default(std::string(mg::cell_kernel_name(c.cell_kernel)) + ", the first this CPU has")
      .whole("--threads", "T", c.threads, 1, 256, "(OpenMP threads per process)",
             "OpenMP threads per process sharing the cell loop and the node passes; the same bits at any T "
             "(OMP_NUM_THREADS is not read)")
      .input_file("--machine", "FILE", o.machine,
                  "a BSP machine file from bspprobe: eq. 5 and the replay beside the measured cycle (default: this "
                  "host's from the per-user cache, or a short probe's)")
      .flag("--no-machine", o.no_machine, "no models: no machine file is read and no probe is run")
      .file_list("--calibration", "R[,R..]", o.calibration,
                 "earlier multigrid results files whose C1 feeds eq. 5, as C1(N/p) fitted over them when there "
                 "are several (default: this run's own, a consistency check only)")
      .file_list("--replay-on", "F[,F..]", o.replay_on,
                 "machine files (e.g. inputs/bsp/ibm-sp2-*.machine) to replay this run on")
      .output_file("--results", "FILE", o.results, "results file")
      .clear_flag("--no-results", o.results, "write no results file")
      .after_reading([&t, &o] {
        if (!o.run.mesh_sequence.empty()) {
          if (t.given("MESH"))
            throw instrument::InputError("command line", "--mesh-sequence",
                                         "no MESH beside it (the sequence's first is the coarsest grid), got " +
                                             o.run.mesh_path);
          if (t.given("--grids"))
            throw instrument::InputError("command line", "--mesh-sequence",
                                         "no --grids beside it (the sequence's length is the grid count)");
          o.run.grids = static_cast<int>(o.run.mesh_sequence.size());
        }
        if (o.run.cycle.pre + o.run.cycle.post == 0)
          throw instrument::InputError("command line", "--pre/--post", "at least one smoothing iteration per visit");
        if (o.no_machine && !o.machine.empty())
          throw instrument::InputError("command line", "--no-machine", "no --machine beside it");
        if (o.no_machine && !o.calibration.empty())
          throw instrument::InputError("command line", "--no-machine",
                                       "no --calibration beside it (the calibration feeds the models it turns off)");
      });
}

int run(Options& o) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bspmodel::BspMachine machine;
  std::vector<bspmodel::BspMachine> others;
  std::optional<mg::C1Curve> c1_given;
  // A results path that cannot be written (a symbolic link, a device) refused before the run.
  if (!o.results.empty()) instrument::check_output_file_on_root(o.results, "results file", MPI_COMM_WORLD);
  // The files given read first, then the grids built, and only then a probe: bad input is
  // refused in one line before seconds of probing. The same files on every rank: a
  // collective verdict (run_app read the command line).
  try {
    if (!o.machine.empty()) machine = bspmodel::read_machine_file(o.machine);
    for (const std::string& f : o.replay_on) others.push_back(bspmodel::read_machine_file(f));
    // Each calibration opened first: a missing file or a symbolic-link loop is named in one
    // line before the results reader sees the path.
    for (const std::string& f : o.calibration) instrument::require_regular_input(f, "results file");
    if (!o.calibration.empty()) c1_given = mg::read_c1_calibrations(o.calibration);
  } catch (const std::exception& e) {
    throw instrument::CollectiveError(e.what());
  }
  mg::ProblemInput input = mg::load_problem(o.run);
  // No --machine: this host's BSP machine file at this p from the per-user cache, or a short
  // probe's (its own SPMD section, before the run's).
  if (o.machine.empty() && !o.no_machine) {
    try {
      o.machine = instrument::machine_cache::machine_for_this_host("multigrid", bspmodel::bsp_cache_probe("multigrid"),
                                                                   MPI_COMM_WORLD, std::cout);
      if (!o.calibration.empty() && o.machine.empty())
        throw instrument::InputError("command line", "--calibration",
                                     "eq. 5 needs l and g, and there is no machine file (the line above says why)");
      if (!o.machine.empty()) machine = bspmodel::read_machine_file(o.machine);
    } catch (const std::exception& e) {
      throw instrument::CollectiveError(e.what());
    }
  }
  const mg::RunResult result = mg::run_multigrid(std::move(input), o.run, rank == 0 ? &std::cout : nullptr);

  instrument::Recorder recorder;
  // Every process's own phase times, so the table shows the spread between them.
  for (std::size_t i = 0; i < result.grids.size(); ++i)
    for (int ph = 0; ph < mg::kPhases; ++ph)
      if (result.grids[i].seconds[static_cast<std::size_t>(ph)] > 0) {
        const auto id = recorder.define_phase("grid" + std::to_string(result.grids[i].grid) + "." + mg::phase_name(ph));
        recorder.add_time(id, result.own_clock[i].seconds[static_cast<std::size_t>(ph)], o.run.cycles);
      }
  // The set-up by phase (once each; setup.refinement, setup.METIS, ...): where it goes.
  for (const auto& [phase, seconds] : result.setup_phases.seconds)
    recorder.add_time(recorder.define_phase("setup." + phase), seconds, 1);
  instrument::RunResults gathered = instrument::gather_results(recorder, mg::run_info(o.run, MPI_COMM_WORLD), MPI_COMM_WORLD);
  instrument::Comparison comparison;
  if (rank == 0) {
    std::cout << "\n";
    mg::print_run_summary(std::cout, o.run, result);
    std::cout << "\n";
    instrument::print_phase_table(std::cout, gathered);
    if (!o.machine.empty()) {
      // C1 is the loop's speed: another build's (2-3x apart) or another p's would mislead eq. 5
      // silently, so describe() flags such points.
      const std::string kernel = mg::cell_kernel_name(o.run.cycle.cell_kernel);
      const mg::C1Curve c1 = c1_given ? *c1_given
                                      : mg::C1Curve({{static_cast<double>(result.grids.front().cells) / result.p,
                                                      mg::measured_c1(result), "this run (a consistency check, not a prediction)",
                                                      result.p, kernel, mg::measured_c1_loose(result)}});
      comparison = mg::model_comparison(result, c1, c1.describe(result.p, kernel), machine, others);
      instrument::mark_if_busy(comparison, gathered.machine_load);
      instrument::mark_if_other_placement(comparison, machine.core_round_trip_seconds,
                                          gathered.core_round_trip.samples(), o.machine);
      // Only where each process had a CPU of its own on one node (the round trip was measured):
      // with more processes than CPUs, time-slicing alone makes their speeds differ.
      if (!comparison.empty() && !gathered.core_round_trip.samples().empty())
        instrument::mark_if_uneven_cpus(comparison, mg::cell_rates_by_cycle(result), "cell");
      // The CPU's speed: steady through the run, and the calibrations' (speed_check.hpp); only
      // where each process had a CPU of its own (one process, or the round trip measured, as
      // above): time-sliced, the check would read the sharing.
      const bool own_cpus =
          !comparison.empty() && (gathered.info.nranks == 1 || !gathered.core_round_trip.samples().empty());
      if (own_cpus) instrument::mark_if_speed_changed(comparison, result.speed_check, mg::kSpeedCheckWhat);
      if (!comparison.empty())
        for (const mg::C1Point& point : c1.points()) {
          instrument::mark_if_calibration_unreliable(comparison, point.source, point.unreliable_because);
          if (own_cpus)
            instrument::mark_if_speed_differs(comparison, result.speed_check.run_ns(), point.speed_check_ns,
                                              point.source, mg::kSpeedCheckWhat);
        }
      std::cout << "\n Models (Hill, Crumpton & Burgess) beside the measured W-cycle\n";
      comparison.print(std::cout);
      for (const auto& t : comparison.model_terms())
        if (t.model.rfind("replay-on-", 0) == 0)
          std::cout << " " << t.model << ": " << 1e3 * t.seconds << " ms per cycle (" << t.equation << ")\n";
    }
  }
  if (!o.results.empty()) {
    mg::write_results_file(o.results, o.run, result, std::move(gathered), comparison, MPI_COMM_WORLD);
    if (rank == 0) std::cout << " Results file: " << o.results << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The set-up frees each step's temporaries before the next allocates: their pages serve it
  // again instead of fresh ones the host backs at first touch (heap_reuse.hpp).
  instrument::reuse_freed_memory();
  Options o;
  instrument::OptionTable table("multigrid", "mpirun -np P multigrid [MESH] [options]");
  declare_options(table, o);
  return instrument::run_app(argc, argv, table, [&] {
    instrument::start_core_round_trip_sample();  // where the host put the CPUs (core_round_trip.hpp)
    return run(o);
  });
}
