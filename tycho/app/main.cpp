// tycho: the priority-scheduled unstructured-mesh S_N sweep. Usage: see --help and README.md.
#include <mpi.h>

#include <cstring>
#include <iostream>
#include <string>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_cache.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/phase_table.hpp"
#include "instrument/recorder.hpp"
#include "instrument/run_results.hpp"
#include "tycho/driver.hpp"
#include "tycho/model_report.hpp"
#include "tycho/results_output.hpp"
#include "tycho/run_report.hpp"

namespace {

const char* const kUsage =
    "usage: mpirun -np P tycho MESH [options]\n"
    "  MESH               a tetrahedral mesh: Tycho2 .smesh or Gmsh .msh (4.1/2.2, ASCII/binary)\n"
    "  --partition FILE   the part of each cell, one per line (default: METIS k-way into P)\n"
    "  --materials FILE   cross sections per material number of the mesh (tycho/README.md; default:\n"
    "                     every material the default problem's)\n"
    "  --sn N             level-symmetric S_N quadrature, N in 2..16 even (default 8: 80 directions)\n"
    "  --product PxA      product quadrature: P Gauss-Legendre polar x A azimuthal angles\n"
    "  --groups G         energy groups (default 2)\n"
    "  --scheme S         ld (linear discontinuous, default) or step\n"
    "  --mcps N|auto      at most N cell-angle tasks a step (default 512); auto: chosen by the GM so\n"
    "                     that communication is at most 20% of the sweep (needs --machine, --calibration)\n"
    "  --priority P       blevel (default), boundary, direction, octant or fifo\n"
    "  --nonblocking      MPI_Isend/MPI_Irecv (default: MPI_Bsend and blocking receives)\n"
    "  --threads N        OpenMP threads per rank sharing each step's tasks (default 1)\n"
    "  --iterations N     at most N source iterations (default 5)\n"
    "  --tol X            stop when the largest relative change of a cell's mean flux is below X\n"
    "                     (default 0: exactly --iterations; a run that does not get below X exits 2)\n"
    "  --stall-seconds S  a sweep that receives nothing for S s while it waits ends the run (default 60)\n"
    "  --results FILE     results file (default tycho.h5); --no-results to skip\n"
    "  --machine FILE     machine file from loggps-probe: print the GM, MSM and TM models beside the\n"
    "                     measured sweep time and write them to the results file\n"
    "  --calibration RUN[,RUN...]  earlier tycho results files whose T_elem(E_p) feeds the models\n"
    "                     (default: this run's own, a consistency check only); same groups,\n"
    "                     directions, scheme and threads as this run\n"
    "  --pce X            the GM's PCE in (0, 1] (default: the first calibration run's, else 0.8)\n"
    "  -h, --help         this text\n";

tycho::RunOptions parse_options(int argc, char** argv, std::string& results, tycho::ModelOptions& models,
                                bool& auto_mcps) {
  tycho::RunOptions o;
  bool have_mesh = false;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    auto value = [&]() -> std::string {
      if (a + 1 >= argc) throw instrument::InputError("command line", s, "expected a value after it (see tycho --help)");
      return argv[++a];
    };
    auto whole = [&](std::int64_t lo, std::int64_t hi, const std::string& unit) {
      return instrument::whole_option(s, value(), lo, hi, unit);
    };
    if (s == "--partition") o.partition_path = instrument::file_option(s, value());
    else if (s == "--materials") o.materials_path = instrument::file_option(s, value());
    else if (s == "--sn") o.sn = static_cast<int>(whole(2, 16, "(the S_N order, even)"));
    else if (s == "--product") {
      const std::string v = value();
      const std::size_t x = v.find('x');
      if (x == std::string::npos)
        throw instrument::InputError("command line", s, "expected PxA, e.g. 4x8, got " + instrument::quote_token(v));
      o.product_polar = static_cast<int>(instrument::whole_option(s, v.substr(0, x), 2, 64, "(polar angles, even)"));
      o.product_azimuthal = static_cast<int>(instrument::whole_option(s, v.substr(x + 1), 4, 256, "(azimuthal angles, a multiple of 4)"));
    } else if (s == "--groups") o.groups = static_cast<int>(whole(1, 64, "(energy groups)"));
    else if (s == "--scheme") {
      const std::string v = value();
      if (v == "ld") o.scheme = tycho::Scheme::linear_discontinuous;
      else if (v == "step") o.scheme = tycho::Scheme::step;
      else throw instrument::InputError("command line", s, "expected ld or step, got " + instrument::quote_token(v));
    } else if (s == "--mcps") {
      const std::string v = a + 1 < argc ? argv[a + 1] : "";
      if (v == "auto") {
        ++a;
        auto_mcps = true;
      } else {
        o.sweep.mcps = whole(1, std::int64_t{1} << 40, "(tasks a step, or auto)");
      }
    }
    else if (s == "--priority") {
      const std::string v = value();
      if (v == "blevel") o.priority = tycho::Priority::blevel;
      else if (v == "boundary") o.priority = tycho::Priority::boundary;
      else if (v == "direction") o.priority = tycho::Priority::direction;
      else if (v == "octant") o.priority = tycho::Priority::octant;
      else if (v == "fifo") o.priority = tycho::Priority::fifo;
      else throw instrument::InputError("command line", s, "expected blevel, boundary, direction, octant or fifo, got " + instrument::quote_token(v));
    } else if (s == "--nonblocking") o.sweep.nonblocking = true;
    else if (s == "--threads") o.sweep.threads = static_cast<int>(whole(1, 256, "(OpenMP threads per rank)"));
    else if (s == "--iterations") o.iterations = static_cast<int>(whole(1, 100000, "(source iterations)"));
    else if (s == "--tol") o.tolerance = instrument::real_option(s, value(), 0, 1);
    else if (s == "--stall-seconds") o.sweep.stall_seconds = instrument::real_option(s, value(), 0.001, 1e6, "s");
    else if (s == "--results") results = instrument::output_file_option(s, value());
    else if (s == "--no-results") results.clear();
    else if (s == "--machine") models.machine_file = instrument::file_option(s, value());
    else if (s == "--calibration") models.calibration_files = instrument::file_list_option(s, value());
    else if (s == "--pce") models.pce = instrument::real_option(s, value(), 1e-6, 1);
    else if (!s.empty() && s[0] == '-') throw instrument::InputError("command line", s, "expected a known option (see tycho --help)");
    else if (have_mesh) throw instrument::InputError("command line", s, "expected one mesh only, already have " + o.mesh_path);
    else {
      o.mesh_path = instrument::file_option("MESH", s);
      have_mesh = true;
    }
  }
  if (!have_mesh) throw instrument::InputError("command line", "MESH", "expected a mesh file (see tycho --help)");
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
  tycho::RunOptions o;
  std::string results = "tycho.h5";
  tycho::ModelOptions model_options;
  bool auto_mcps = false;
  try {
    // The same argv on every rank: a collective verdict.
    o = parse_options(argc, argv, results, model_options, auto_mcps);
    if (auto_mcps && (model_options.machine_file.empty() || model_options.calibration_files.empty()))
      throw instrument::InputError("command line", "--mcps auto", "expected --machine and --calibration too: the GM chooses MCPS from T_elem and T_comm");
  } catch (const instrument::InputError& e) {
    throw instrument::CollectiveError(e.what());
  }
  // No --machine: this host's machine file from the per-user cache, or a short probe's.
  if (model_options.machine_file.empty())
    model_options.machine_file = instrument::machine_cache::machine_for_this_host(
        "tycho", instrument::machine_cache::loggps_probe("tycho", MPI_COMM_WORLD), MPI_COMM_WORLD, std::cout);
  // A results path that cannot be written (a symbolic link, a device) refused before the run.
  if (!results.empty()) instrument::check_output_file_on_root(results, "results file", MPI_COMM_WORLD);
  const tycho::PreparedModels models = tycho::prepare_models(model_options, o, MPI_COMM_WORLD);
  if (auto_mcps) {
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    o.choose_mcps = [&models, &o, ranks](std::size_t cells, std::string& why) {
      return tycho::auto_mcps(models, o, cells, ranks, why);
    };
  }
  instrument::Recorder recorder;
  const tycho::RunResult result = tycho::run_tycho(o, MPI_COMM_WORLD, recorder, &std::cout);
  instrument::RunResults gathered =
      instrument::gather_results(recorder, tycho::run_info(o, MPI_COMM_WORLD), MPI_COMM_WORLD);
  instrument::Comparison comparison;
  if (rank == 0) {
    tycho::print_run_summary(std::cout, o, result);
    std::cout << "\n";
    instrument::print_phase_table(std::cout, gathered);
    comparison = tycho::model_comparison(models, o, result);
    if (!comparison.empty()) {
      std::cout << "\n Models (Kerbyson, Hoisie & Pautz) beside the measured sweep of one iteration\n";
      comparison.print(std::cout);
    }
  }
  if (!results.empty()) {
    tycho::write_results_file(results, o, result, std::move(gathered), comparison, MPI_COMM_WORLD);
    if (rank == 0) std::cout << " Results file: " << results << "\n";
  }
  if (o.tolerance > 0 && !result.transport.converged) {
    if (rank == 0)
      std::cerr << "tycho: error: not converged: change " << result.transport.iterations.back().change
                << " > --tol " << o.tolerance << " after " << result.transport.iterations.size() << " iterations\n";
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return instrument::run_mpi_main(argc, argv, "tycho", run); }
