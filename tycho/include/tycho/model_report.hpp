// The GM, MSM and TM of Kerbyson, Hoisie & Pautz beside the measured sweep time of the run,
// as sweep3d prints its models: the side-by-side table, with where each input came from.
//
// Inputs, calibrate-then-predict:
//   T_elem   from --calibration RUN.h5[,RUN.h5...]: earlier runs' /tycho/calibration fitted in
//            the paper's piecewise form over E_p (tycho/model/telem.hpp), read at this run's
//            E_p = N/P; without --calibration, this run's own T_elem (a consistency check,
//            said in every row's source).
//   T_comm   from --machine FILE (loggps-probe's machine file). The GM and the MSM charge a
//            message what the sweep's critical path holds of it (machine_comm.hpp's T_msg):
//            the send call, the receive call and the unpack of its records, T_unpack from the
//            calibration files (the median of those that have it; none: not priced, the rows
//            say so), or without --calibration this run's own, measured after its sweeps.
//            --mcps auto keeps eq. 7's one-way cost.
//   PCE (GM) --pce X as given, else 1 at one rank (no idle time by definition), else without
//            --calibration this run's own (over its scored sweeps, eq. 4), else the first calibration
//            run's measured PCE, else the paper's 0.8 (its Figure 9); the row says which.
// The measured column is what all three model: the sweep of one source iteration, max over
// ranks, the median over iterations (the first left out when there are more than two).
// MSM and TM are fed this run's recorded steps and messages (their point: the mesh and the
// schedule as they happened) but none of its timings.
// The GM's and MSM's compute and comm terms are compared, as part rows, with the same time
// measured on the critical path of the traced sweeps (tycho/model/measured_path.hpp, the
// categories in tycho/sweep_phases.hpp): the mean over the scored iterations the trace holds.
// The path's other time, which no model term covers, is reported under the table.
#pragma once
#include <mpi.h>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "instrument/comparison.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggp_pending.hpp"
#include "instrument/loggps.hpp"
#include "instrument/replay.hpp"
#include "instrument/run_results.hpp"
#include "instrument/uneven_cpus.hpp"
#include "tycho/driver.hpp"
#include "tycho/model/measured_path.hpp"
#include "tycho/model/telem.hpp"
#include "tycho/results_calibration.hpp"

namespace tycho {

struct ModelOptions {
  std::string machine_file;                    // empty: no models
  std::vector<std::string> calibration_files;  // empty: this run's own T_elem
  double pce = 0;                              // > 0: the GM's PCE as given
  model::TelemFit telem_fit = model::TelemFit::points;  // how T_elem(E_p) is drawn (telem.hpp)
};

inline constexpr const char* kPceGiven = "given (--pce)";

struct PreparedModels {
  bool enabled = false;
  std::string machine_file;
  instrument::loggps::LogGpsParams loggps;
  std::optional<instrument::loggp::LogGpParams> loggp;  // the machine file's LogGP set, if any
  std::optional<instrument::loggp::PendingCosts> pending;  // its loggp.pending.* figures, if any
  double unpack_s_per_record = 0;  // T_unpack from the calibrations; 0: none measured it
  std::string unpack_source;       // which files it came from
  bool unpack_message_measured = false;
  double unpack_s_per_message = 0;  // its fixed part a message (median)
  bool bsend_measured = false;       // MPI_Bsend's extra over an isend, from the calibrations
  double bsend_s_per_call = 0, bsend_s_per_byte = 0;  // medians
  std::string bsend_source;
  bool step_measured = false;  // T_step (results_calibration.hpp) from the one-rank calibrations
  double step_s = 0;           // their median
  std::string step_source;
  instrument::replay::Machine machine;
  std::vector<model::TelemPoint> telem_points;  // empty: this run's own
  model::TelemFit telem_fit = model::TelemFit::points;
  double pce = 0.8;
  std::string pce_source = "assumed 0.8 (the paper's Figure 9)";
};

// One --calibration file, read and checked against this run (the same groups, directions,
// scheme and threads), with the PCE its run measured (0: none).
struct CalibrationRun {
  std::string path;
  TychoCalibration calibration;
  double pce = 0;
  double speed_check_ns = 0;  // its /tycho speed_check_ns (0: a file from before the check)
};

// Collective, before the probe: reads and checks the calibrations (options.calibration_files)
// on every rank, and the T_elem fit they give; a bad file ends every rank with one line.
std::vector<CalibrationRun> read_calibration_runs(const ModelOptions& options, const RunOptions& run, MPI_Comm comm);

// Collective, before the run: reads and checks the machine file on every rank (a bad one ends
// every rank with one line), and draws the models' figures from the calibrations read.
PreparedModels prepare_models(const ModelOptions& options, const std::vector<CalibrationRun>& calibrations,
                              MPI_Comm comm);

// --mcps auto: the MCPS the GM predicts fastest among those whose communication is at most
// kAutoMcpsCommShare of the sweep (the paper's Figure 10 uses 20%), with T_elem from the
// calibration at this run's E_p; `why` gets the share and the rule that chose it. Needs
// calibration points (prepare_models checks). The same on every rank (pure).
inline constexpr double kAutoMcpsCommShare = 0.2;
std::int64_t auto_mcps(const PreparedModels& models, const RunOptions& run, std::size_t cells, int ranks,
                       std::string& why);

// Rank 0, after the gather: the critical path of the scored iterations' sweeps (those the
// gathered trace holds complete; none when the run was not traced).
model::MeasuredSweepPath measured_sweep_path(const instrument::RunResults& gathered, const RunResult& result);

// Rank 0, after run_tycho: the comparison rows (empty when the models are not enabled), the
// part rows from `path` when it walked any sweep. `own`: this run's own figures
// (calibration_of), whose T_unpack and buffered-send extra price the messages where no
// --calibration gave them: the consistency check, which takes the run's own T_elem too.
instrument::Comparison model_comparison(const PreparedModels& models, const RunOptions& run, const RunResult& result,
                                        const model::MeasuredSweepPath& path,
                                        const TychoCalibration* own = nullptr);

// Under the table: the path's time outside the solves and messages, or why there are no part rows.
void print_path_note(std::ostream& out, const model::MeasuredSweepPath& path);

// The ranks' time per cell-angle task by iteration, by rank (instrument/uneven_cpus.hpp):
// a run whose slowest rank took more than 1.25x the fastest's in an iteration had a CPU the
// host slowed, and its comparison is marked unreliable. Iterations are joined until each rank
// has min_seconds of compute in the span (instrument::rates_over_spans: a small mesh's
// iterations hold microseconds, where one interrupt decides the ratio). Rank 0, from
// result.histories.
std::vector<instrument::RankRates> task_rates_by_iteration(const RunResult& result,
                                                           double min_seconds = instrument::kUnevenCpuMinSeconds);

}  // namespace tycho
