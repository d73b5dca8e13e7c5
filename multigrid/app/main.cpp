// multigrid: W-cycles of an unstructured tetrahedral multigrid smoother on our BSPlib, with
// eq. 5 and the profiler's replay beside the measured cycle. Usage: see --help, README.md.
#include <mpi.h>

#include <cstring>
#include <optional>
#include <iostream>
#include <string>

#include "bsplib/model/bsp_short_probe.hpp"
#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_cache.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/phase_table.hpp"
#include "instrument/recorder.hpp"
#include "instrument/run_results.hpp"
#include "multigrid/driver.hpp"
#include "multigrid/model_report.hpp"
#include "multigrid/results_output.hpp"

namespace {

const char* const kUsage =
    "usage: mpirun -np P multigrid [MESH] [options]\n"
    "  MESH                 the coarsest grid: Tycho2 .smesh or Gmsh .msh (default: the unit cube cut\n"
    "                       into --cube N^3 cubes of 6 tetrahedra)\n"
    "  --cube N             the default cube's cubes per side (default 4: 384 cells)\n"
    "  --grids N            grids, each a uniform refinement of the last (default 3)\n"
    "  --mesh-sequence A,B[,..]  independent meshes of one domain, coarsest first, instead of MESH\n"
    "                       and its refinements; transfers by point location\n"
    "  --partition FILE     the part of each cell of the finest grid (default: METIS k-way into P)\n"
    "  --cycles N           cycles to run (default 8)\n"
    "  --cycle W|V          W-cycle (default) or V-cycle\n"
    "  --smoother S         chebyshev (default) or jacobi (damped), polynomials in D^-1 A\n"
    "  --pre N, --post N    smoothing iterations before and after the coarse correction (default 2, 2)\n"
    "  --coarse-iterations N  smoothing iterations on the coarsest grid per visit (default 30)\n"
    "  --smoothing-lower F  the smoothers aim at the eigenvalues of D^-1 A in [F lambda_max, lambda_max]\n"
    "                       (default 0.25; 0.1 with --pre 3 --post 3 for gmsh's meshes)\n"
    "  --cell-kernel K      the cell loop's build: avx512, avx2 (the first the CPU has is the default)\n"
    "                       or portable; the same bits whichever\n"
    "  --machine FILE       a BSP machine file from bspprobe: eq. 5 and the replay beside the measured cycle\n"
    "  --calibration R[,R..]  earlier multigrid results files whose C1 feeds eq. 5, as C1(N/p) fitted\n"
    "                       over them when there are several (default: this run's own, a consistency\n"
    "                       check only)\n"
    "  --replay-on F[,F..]  machine files (e.g. inputs/bsp/ibm-sp2-*.machine) to replay this run on\n"
    "  --results FILE       results file (default multigrid.h5); --no-results to skip\n"
    "  -h, --help           this text\n";

struct Options {
  mg::RunOptions run;
  std::string results = "multigrid.h5", machine;
  std::vector<std::string> calibration, replay_on;
};

Options parse_options(int argc, char** argv) {
  Options o;
  bool have_mesh = false, have_grids = false;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    auto value = [&]() -> std::string {
      if (a + 1 >= argc) throw instrument::InputError("command line", s, "expected a value after it (see multigrid --help)");
      return argv[++a];
    };
    auto whole = [&](std::int64_t lo, std::int64_t hi, const std::string& unit) {
      return static_cast<int>(instrument::whole_option(s, value(), lo, hi, unit));
    };
    if (s == "--cube") o.run.cube = whole(1, 200, "(cubes per side)");
    else if (s == "--grids") {
      o.run.grids = whole(1, 8, "(grids)");
      have_grids = true;
    }
    else if (s == "--partition") o.run.partition_path = instrument::file_option(s, value());
    else if (s == "--mesh-sequence") {
      o.run.mesh_sequence = instrument::file_list_option(s, value());
      if (o.run.mesh_sequence.size() < 2)
        throw instrument::InputError("command line", s, "expected two meshes or more, coarsest first, separated by commas");
    }
    else if (s == "--cycles") o.run.cycles = whole(1, 10000, "(cycles)");
    else if (s == "--cycle") {
      const std::string v = value();
      if (v == "W") o.run.cycle.gamma = 2;
      else if (v == "V") o.run.cycle.gamma = 1;
      else throw instrument::InputError("command line", s, "expected W or V, got " + instrument::quote_token(v));
    } else if (s == "--smoother") {
      const std::string v = value();
      if (v == "chebyshev") o.run.cycle.smoother = mg::Smoother::chebyshev;
      else if (v == "jacobi") o.run.cycle.smoother = mg::Smoother::jacobi;
      else throw instrument::InputError("command line", s, "expected chebyshev or jacobi, got " + instrument::quote_token(v));
    } else if (s == "--pre") o.run.cycle.pre = whole(0, 100, "(smoothing iterations)");
    else if (s == "--post") o.run.cycle.post = whole(0, 100, "(smoothing iterations)");
    else if (s == "--cell-kernel") {
      const std::string v = value();
      bool known = false;
      std::string here;  // the builds that run here
      for (mg::CellKernel k : {mg::CellKernel::avx512, mg::CellKernel::avx2, mg::CellKernel::portable}) {
        const bool runs = mg::cell_kernel_runs_here(k);
        if (runs) here += std::string(here.empty() ? "" : ", ") + mg::cell_kernel_name(k);
        if (v != mg::cell_kernel_name(k)) continue;
        known = true;
        if (runs) o.run.cycle.cell_kernel = k;
      }
      if (!known)
        throw instrument::InputError("command line", s, "expected avx512, avx2 or portable, got " + instrument::quote_token(v));
      if (v != mg::cell_kernel_name(o.run.cycle.cell_kernel))
        throw instrument::InputError("command line", s, "a build that runs here (" + here + "; " + v +
                                                            " is not built in, or this CPU lacks it), got " + instrument::quote_token(v));
    } else if (s == "--coarse-iterations") o.run.cycle.coarse_iterations = whole(1, 100000, "(smoothing iterations)");
    else if (s == "--smoothing-lower") o.run.cycle.smoothing_lower = instrument::real_option(s, value(), 0.01, 0.9, "(of lambda_max)");
    else if (s == "--machine") o.machine = instrument::file_option(s, value());
    else if (s == "--calibration") o.calibration = instrument::file_list_option(s, value());
    else if (s == "--replay-on") o.replay_on = instrument::file_list_option(s, value());
    else if (s == "--results") o.results = instrument::output_file_option(s, value());
    else if (s == "--no-results") o.results.clear();
    else if (!s.empty() && s[0] == '-') throw instrument::InputError("command line", s, "expected a known option (see multigrid --help)");
    else if (have_mesh) throw instrument::InputError("command line", s, "expected one mesh only, already have " + o.run.mesh_path);
    else {
      o.run.mesh_path = instrument::file_option("MESH", s);
      have_mesh = true;
    }
  }
  if (!o.run.mesh_sequence.empty()) {
    if (have_mesh)
      throw instrument::InputError("command line", "--mesh-sequence",
                                   "no MESH beside it (the sequence's first is the coarsest grid), got " + o.run.mesh_path);
    if (have_grids)
      throw instrument::InputError("command line", "--mesh-sequence", "no --grids beside it (the sequence's length is the grid count)");
    o.run.grids = static_cast<int>(o.run.mesh_sequence.size());
  }
  if (o.run.cycle.pre + o.run.cycle.post == 0)
    throw instrument::InputError("command line", "--pre/--post", "at least one smoothing iteration per visit");
  return o;
}

int run(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int a = 1; a < argc; ++a)
    if (std::strcmp(argv[a], "-h") == 0 || std::strcmp(argv[a], "--help") == 0) {
      if (rank == 0) std::cout << kUsage;
      return 0;
    }
  Options o;
  bspmodel::BspMachine machine;
  std::vector<bspmodel::BspMachine> others;
  std::optional<mg::C1Curve> c1_given;
  try {
    // The same argv and files on every rank: a collective verdict.
    o = parse_options(argc, argv);
    // No --machine: this host's BSP machine file at this p from the per-user cache, or a
    // short probe's (its own SPMD section, before the run's).
    if (o.machine.empty())
      o.machine = instrument::machine_cache::machine_for_this_host("multigrid", bspmodel::bsp_cache_probe("multigrid"),
                                                                   MPI_COMM_WORLD, std::cout);
    if (!o.calibration.empty() && o.machine.empty())
      throw instrument::InputError("command line", "--calibration", "expected --machine too: eq. 5 needs l and g");
    if (!o.machine.empty()) machine = bspmodel::read_machine_file(o.machine);
    for (const std::string& f : o.replay_on) others.push_back(bspmodel::read_machine_file(f));
    // Each calibration opened first: a missing file or a symbolic-link loop is named in one
    // line before the results reader sees the path.
    for (const std::string& f : o.calibration) instrument::require_regular_input(f, "results file");
    if (!o.calibration.empty()) c1_given = mg::read_c1_calibrations(o.calibration);
  } catch (const std::exception& e) {
    throw instrument::CollectiveError(e.what());
  }
  // A results path that cannot be written (a symbolic link, a device) refused before the run.
  if (!o.results.empty()) instrument::check_output_file_on_root(o.results, "results file", MPI_COMM_WORLD);
  const mg::RunResult result = mg::run_multigrid(o.run, rank == 0 ? &std::cout : nullptr);

  instrument::Recorder recorder;
  // Every process's own phase times, so the table shows the spread between them.
  for (std::size_t i = 0; i < result.grids.size(); ++i)
    for (int ph = 0; ph < mg::kPhases; ++ph)
      if (result.grids[i].seconds[static_cast<std::size_t>(ph)] > 0) {
        const auto id = recorder.define_phase("grid" + std::to_string(result.grids[i].grid) + "." + mg::phase_name(ph));
        recorder.add_time(id, result.own_clock[i].seconds[static_cast<std::size_t>(ph)], o.run.cycles);
      }
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
                                                      result.p, kernel}});
      comparison = mg::model_comparison(result, c1, c1.describe(result.p, kernel), machine, others);
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

int main(int argc, char** argv) { return instrument::run_mpi_main(argc, argv, "multigrid", run); }
