// tycho: the priority-scheduled unstructured-mesh S_N sweep. Usage: see --help and README.md.
#include <mpi.h>

#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "instrument/calibration_reader.hpp"
#include "instrument/core_round_trip.hpp"
#include "instrument/error.hpp"
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
#include "tycho/driver.hpp"
#include "tycho/model_report.hpp"
#include "tycho/results_output.hpp"
#include "tycho/run_report.hpp"
#include "tycho/speed_check.hpp"
#include "tycho/sweep_phases.hpp"

namespace {

// The command line, bound to `o`, `results`, `models` and `auto_mcps`.
void declare_options(instrument::OptionTable& t, tycho::RunOptions& o, std::string& results,
                     tycho::ModelOptions& models, bool& auto_mcps, bool& no_machine) {
  using tycho::Priority;
  t.positional_file("MESH", o.mesh_path, instrument::Arity::required,
                    "a tetrahedral mesh: Tycho2 .smesh or Gmsh .msh (4.1/2.2, ASCII/binary)")
      .input_file("--partition", "FILE", o.partition_path,
                  "the part of each cell, one per line (default: METIS k-way into P)")
      .input_file("--materials", "FILE", o.materials_path,
                  "cross sections per material number of the mesh (tycho/README.md; default: every "
                  "material the default problem's)")
      .whole("--sn", "N", o.sn, 2, 16, "(the S_N order, even)", "level-symmetric S_N quadrature (8: 80 directions)")
      .text("--product", "PxA",
            [&o](const std::string& s, const std::string& v) {
              const std::size_t x = v.find('x');
              if (x == std::string::npos)
                throw instrument::InputError("command line", s, "expected PxA, e.g. 4x8, got " + instrument::quote_token(v));
              o.product_polar = static_cast<int>(instrument::whole_option(s, v.substr(0, x), 2, 64, "(polar angles, even)"));
              o.product_azimuthal = static_cast<int>(
                  instrument::whole_option(s, v.substr(x + 1), 4, 256, "(azimuthal angles, a multiple of 4)"));
            },
            "product quadrature: P Gauss-Legendre polar (in [2, 64], even) x A azimuthal angles (in [4, 256], "
            "a multiple of 4)")
      .whole("--groups", "G", o.groups, 1, 64, "(energy groups)", "energy groups")
      .choice("--scheme", "S", o.scheme, {{"ld", tycho::Scheme::linear_discontinuous}, {"step", tycho::Scheme::step}},
              "the spatial scheme: ld (linear discontinuous) or step")
      .whole_or_word("--mcps", "N", o.sweep.mcps, "auto", auto_mcps, 1, std::int64_t{1} << 40, "(tasks a step)",
                     "at most N cell-angle tasks a step; auto: chosen by the GM so that communication is at "
                     "most 20% of the sweep (needs --calibration and a machine file)")
      .choice("--priority", "P", o.priority,
              {{"band-octant", Priority::band_octant}, {"blevel", Priority::blevel}, {"boundary", Priority::boundary},
               {"direction", Priority::direction}, {"octant", Priority::octant}, {"fifo", Priority::fifo}},
              "the order of ready tasks")
      .flag("--nonblocking", o.sweep.nonblocking, "MPI_Isend/MPI_Irecv (default: MPI_Bsend and blocking receives)")
      .whole("--threads", "N", o.sweep.threads, 1, 256, "(OpenMP threads per rank)",
             "OpenMP threads per rank sharing each step's tasks")
      .whole("--iterations", "N", o.iterations, 1, 100000, "(source iterations)", "at most N source iterations")
      .real("--tol", "X", o.tolerance, 0, 1, "",
            "stop when the largest relative change of a cell's mean flux is below X (0: exactly --iterations; "
            "a run that does not get below X exits 2)")
      .real("--stall-seconds", "S", o.sweep.stall_seconds, 0.001, 1e6, "s",
            "a sweep that receives nothing for S s while it waits ends the run (at once when no record is left to come)")
      .output_file("--results", "FILE", results, "results file")
      .clear_flag("--no-results", results, "write no results file")
      .input_file("--machine", "FILE", models.machine_file,
                  "machine file from loggps-probe: the GM, MSM and TM models beside the measured sweep time "
                  "and in the results file (default: this host's from the per-user cache, or a short probe's)")
      .file_list("--calibration", "RUN[,RUN...]", models.calibration_files,
                 "earlier tycho results files whose T_elem(E_p) feeds the models (default: this run's own, "
                 "a consistency check only); same groups, directions, scheme and threads as this run")
      .choice("--telem-fit", "FIT", models.telem_fit,
              {{"points", tycho::model::TelemFit::points}, {"line", tycho::model::TelemFit::line}},
              "how T_elem(E_p) is drawn from the calibrations: points, through each measured E_p; "
              "line, the paper's least-squares a ln(E_p) + b")
      .real("--pce", "X", models.pce, 1e-6, 1, "", "the GM's PCE")
      .shown_default("1 at one rank; without --calibration this run's own; else the first calibration run's, else 0.8")
      .flag("--no-machine", no_machine, "no models: no machine file is read and no probe is run")
      .after_reading([&t, &models, &auto_mcps, &no_machine] {
        if (t.given("--telem-fit") && models.calibration_files.empty())
          throw instrument::InputError("command line", "--telem-fit",
                                       "expected --calibration too: it draws T_elem from the calibration runs");
        if (no_machine && !models.machine_file.empty())
          throw instrument::InputError("command line", "--no-machine", "no --machine beside it");
        if (no_machine && !models.calibration_files.empty())
          throw instrument::InputError("command line", "--no-machine",
                                       "no --calibration beside it (the calibration feeds the models it turns off)");
        if (no_machine && auto_mcps)
          throw instrument::InputError("command line", "--no-machine", "no --mcps auto beside it (auto needs the models)");
        if (auto_mcps && models.calibration_files.empty())
          throw instrument::InputError("command line", "--mcps auto",
                                       "expected --calibration too: the GM chooses MCPS from T_elem and T_comm");
      });
}

int run(tycho::RunOptions& o, const std::string& results, tycho::ModelOptions& model_options, bool auto_mcps,
        bool no_machine) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // A results path that cannot be written (a symbolic link, a device) refused before the run.
  if (!results.empty()) instrument::check_output_file_on_root(results, "results file", MPI_COMM_WORLD);
  // The calibrations, mesh, partition and materials read first: bad input is refused before
  // a probe.
  const std::vector<tycho::CalibrationRun> calibrations =
      tycho::read_calibration_runs(model_options, o, MPI_COMM_WORLD);
  tycho::TychoInput input = tycho::read_tycho_input(o, MPI_COMM_WORLD, !auto_mcps);
  // No --machine: this host's machine file from the per-user cache, or a short probe's.
  if (model_options.machine_file.empty() && !no_machine)
    model_options.machine_file = instrument::machine_cache::machine_for_this_host(
        "tycho", instrument::machine_cache::loggps_probe("tycho", MPI_COMM_WORLD), MPI_COMM_WORLD, std::cout);
  if (auto_mcps && model_options.machine_file.empty())
    throw instrument::CollectiveError(
        "command line:--mcps auto: the GM needs a machine file, and there is none (the line above says why)");
  const tycho::PreparedModels models = tycho::prepare_models(model_options, calibrations, MPI_COMM_WORLD);
  if (auto_mcps) {
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    o.choose_mcps = [&models, &o, ranks](std::size_t cells, std::string& why) {
      return tycho::auto_mcps(models, o, cells, ranks, why);
    };
  }
  // Traced only when the models run: their parts are compared with the sweeps' critical path.
  instrument::Recorder recorder(tycho::trace_capacity(models.enabled));
  const tycho::RunResult result = tycho::run_tycho(o, std::move(input), MPI_COMM_WORLD, recorder, &std::cout);
  instrument::RunResults gathered =
      instrument::gather_results(recorder, tycho::run_info(o, MPI_COMM_WORLD), MPI_COMM_WORLD);
  instrument::Comparison comparison;
  tycho::model::MeasuredSweepPath path;
  std::optional<tycho::TychoCalibration> own;  // rank 0: this run's figures, when the models take them
  if (rank == 0) {
    tycho::print_run_summary(std::cout, o, result);
    std::cout << "\n";
    instrument::print_phase_table(std::cout, gathered);
    if (models.enabled) path = tycho::measured_sweep_path(gathered, result);
    // The consistency check prices messages with this run's own unpack and Bsend figures,
    // measured once here for the results file too.
    if (models.enabled && model_options.calibration_files.empty()) own = tycho::calibration_of(o, result, path);
    comparison = tycho::model_comparison(models, o, result, path, own ? &*own : nullptr);
    instrument::mark_if_busy(comparison, gathered.machine_load);
    instrument::mark_if_other_placement(comparison, model_options.machine_file, instrument::kLogGpRoundTripKey,
                                        gathered.core_round_trip, gathered.info.nranks);
    // Only where each rank had a CPU of its own on one node (the round trip was measured): with
    // more ranks than CPUs, time-slicing alone makes the ranks' speeds differ.
    if (!comparison.empty() && !gathered.core_round_trip.samples().empty())
      instrument::mark_if_uneven_cpus(comparison, tycho::task_rates_by_iteration(result), "cell-angle task");
    // The CPU's speed: steady through the run, and the calibrations' (speed_check.hpp); only
    // where each rank had a CPU of its own (one rank, or the round trip measured, as above):
    // time-sliced, the check would read the sharing.
    const bool own_cpus =
        !comparison.empty() && (gathered.info.nranks == 1 || !gathered.core_round_trip.samples().empty());
    if (own_cpus) instrument::mark_if_speed_changed(comparison, result.speed_check, tycho::kSpeedCheckWhat);
    // Every calibration feeds the models (T_elem's curve, PCE, the unpack and Bsend figures).
    if (!comparison.empty())
      for (const tycho::CalibrationRun& c : calibrations) {
        instrument::mark_if_calibration_unreliable(comparison, c.path, c.calibration.unreliable_because);
        if (own_cpus)
          instrument::mark_if_speed_differs(comparison, result.speed_check.run_ns(), c.speed_check_ns, c.path,
                                            tycho::kSpeedCheckWhat);
      }
    if (!comparison.empty()) {
      std::cout << "\n Models (Kerbyson, Hoisie & Pautz) beside the measured sweep of one iteration\n";
      comparison.print(std::cout);
      tycho::print_path_note(std::cout, path);
    }
  }
  if (!results.empty()) {
    tycho::write_results_file(results, o, result, std::move(gathered), comparison, path, MPI_COMM_WORLD,
                              own ? &*own : nullptr);
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

int main(int argc, char** argv) {
  tycho::RunOptions o;
  std::string results = "tycho.h5";
  tycho::ModelOptions models;
  bool auto_mcps = false, no_machine = false;
  instrument::OptionTable table("tycho", "mpirun -np P tycho MESH [options]");
  declare_options(table, o, results, models, auto_mcps, no_machine);
  return instrument::run_app(argc, argv, table, [&] {
    instrument::start_core_round_trip_sample();  // where the host put the CPUs (core_round_trip.hpp)
    return run(o, results, models, auto_mcps, no_machine);
  });
}
