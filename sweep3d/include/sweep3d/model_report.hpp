// The models beside the run: the LogGP (Sundaram-Stukel & Vernon) and pipeline (Hoisie,
// Lubeck & Wasserman) predictions of this run's time, printed and written next to what the
// run measured, row by row the same quantity (model/run_comparison.hpp).
//
// Where the model's inputs come from is always said:
//   machine      --machine FILE, a machine file from loggps-probe (LogGP bands, eager limit)
//   W_g etc.     --calibration RUN.h5[,RUN.h5...], earlier sweep3d results files (the honest
//                use: calibrate on a small run, predict another), or else this run's own
//                measurements, which makes the table a consistency check, not a prediction.
// W_g depends on the angle blocking, the threads and the kernel, so a calibration must match
// the run's (sweep3d/model/calibration.hpp); one that does not is refused before the run, with the
// command that makes a matching one. Every run writes its own calibration
// (/sweep3d/calibration) so it can serve as one.
#pragma once
#include <string>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/comparison.hpp"
#include "instrument/critical_path.hpp"
#include "instrument/results_file.hpp"
#include "instrument/run_results.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/model/blocking_search.hpp"
#include "sweep3d/model/calibration.hpp"
#include "sweep3d/model/message_costs.hpp"
#include "sweep3d/model/run_comparison.hpp"
#include "sweep3d/work_figures.hpp"

namespace sweep3d {

struct ModelInputs {
  std::string machine_file;                    // "" = no models
  std::vector<std::string> calibration_files;  // none = this run's own measurements
};

// The inputs, read and checked on every rank before the run.
struct PreparedModels {
  bool enabled = false;  // a machine file was given
  model::MachineCosts machine;
  std::int64_t rendezvous_bytes = 0;  // from here a blocking send waits for its receiver
  instrument::MachineRecord machine_record;
  std::string machine_file;
  model::CalibrationSet calibrations;  // empty: this run calibrates itself
};

// Collective: a missing or bad file ends every rank with one line in a second, not after the
// sweep.
PreparedModels prepare_models(const ModelInputs& inputs, instrument::Comm& comm);

// --mk/--mmi auto: the blocking the LogGP model predicts fastest for the deck's grid, each mmi
// priced with its own W_g (the calibrations at this run's threads and kernel); a fixed --mk or
// --mmi stays as given. Sets options.force_mk/force_mmi. Collective (every rank computes the
// same); a collective error when no calibrated blocking fits.
model::BlockingChoice choose_blocking(const Deck& deck, const PreparedModels& models, bool auto_mk, bool auto_mmi,
                                      RunOptions& options, instrument::Comm& comm);

// Before the run: the calibrations must cover this run's mmi, threads and kernel (or be
// absent). Collective error otherwise, naming the blocking to calibrate with.
void require_calibration(const Deck& deck, const RunOptions& options, const PreparedModels& models,
                         instrument::Comm& comm);

struct ModelReport {
  bool enabled = false;
  instrument::Comparison comparison;
  instrument::MachineRecord machine;
  std::vector<model::IterationParts> parts;  // the traced iterations' paths, in the models' parts
  instrument::critical_path::Result path_by_iteration;  // the walk itself, per iteration
  std::int64_t dropped_events = 0;                      // past the trace's capacity, all ranks
};

// Each walked iteration's critical path in the models' categories (phases.hpp's category
// names; a category the walk does not hold reads 0).
std::vector<model::IterationParts> parts_by_iteration(const instrument::critical_path::Result& path);

// Rank 0, after the gather (the measured side comes from the gathered phases and trace).
ModelReport build_model_report(const RunResult& run, const WorkFigures& figures, const instrument::RunResults& gathered,
                               const PreparedModels& models);

// The table, then what the measured critical path holds that no model term covers (rank 0's
// monitor line, loop bookkeeping), so that the parts visibly add up to the measured T_iter.
void print_model_report(std::ostream& out, const ModelReport& report);

}  // namespace sweep3d
