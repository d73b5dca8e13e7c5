// The models beside the run: the LogGP (Sundaram-Stukel & Vernon) and pipeline (Hoisie,
// Lubeck & Wasserman) predictions of this run's time, printed and written next to what the
// run measured.
//
// Where the model's inputs come from is always said:
//   machine      --machine FILE, a machine file from loggps-probe (LogGP bands, eager limit)
//   W_g etc.     --calibration RUN.h5, an earlier sweep3d results file (the honest use:
//                calibrate on a small run, predict another), or else this run's own
//                measurements, which makes the table a consistency check, not a prediction.
// Every run writes its own calibration (/sweep3d/calibration) so it can serve as one.
#pragma once
#include <string>

#include "instrument/comm.hpp"
#include "instrument/comparison.hpp"
#include "instrument/results_extras.hpp"
#include "instrument/results_file.hpp"
#include "kba_shape.hpp"
#include "sweep3d/driver.hpp"

namespace sweep3d {

// The models' view of a run of `deck` on an npe_i x npe_j grid blocked by mk x mmi.
model::KbaShape kba_shape(const Deck& deck, int npe_i, int npe_j, int mk, int mmi);

// What a later run's models read from this one. Work before/after the sweeps is per
// iteration and per local cell, so it scales to another run's cells per rank.
struct Calibration {
  double wg_s = 0.0;         // kernel seconds per cell-angle, iterations without fixups
  double wg_fixup_s = 0.0;   // the same in iterations with fixups (= wg_s if there were none)
  double w_before_s_per_cell = 0.0;  // source computation
  double w_after_s_per_cell = 0.0;   // flux error computation (the reductions are in the model)
  std::string source;                // a phrase for the table: "this run" or "RUN.h5 (1 rank, ...)"
};

// This run's calibration (rank 0's view; call on every rank after run_sweep3d).
Calibration calibration_of(const RunResult& r);
// /sweep3d/calibration attributes.
void add_calibration(const Calibration& c, instrument::ResultsExtras& extras);
// Reads /sweep3d/calibration from an earlier results file (InputError naming the file).
Calibration read_calibration(const std::string& results_file);

struct ModelInputs {
  std::string machine_file;      // "" = no models
  std::string calibration_file;  // "" = this run's own measurements
};

// Reads and checks the machine and calibration files on every rank before the run, so a bad
// path fails in a second, not after the sweep (collective: one line, every rank exits).
void check_model_inputs(const ModelInputs& in, instrument::Comm& comm);

struct ModelReport {
  bool enabled = false;
  instrument::Comparison comparison;
  instrument::MachineRecord machine;
};

// Collective (reduces the measured breakdown over ranks). Meaningful on rank 0.
ModelReport build_model_report(const RunResult& r, const ModelInputs& in, instrument::Comm& comm);

}  // namespace sweep3d
