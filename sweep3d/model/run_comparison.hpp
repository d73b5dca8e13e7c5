// Puts the two sweep models beside a measured Sweep3D run: the rows of the side-by-side
// table (per iteration and in total, and the Figure 9 breakdown) and the model terms.
//
// The models need W_g (seconds per cell-angle, with and without fixups, as the paper
// measured both), W_before / W_after, and the machine's message costs. Each comes with a
// `source` string that the table prints, so a reader always sees whether the model was fed
// this run's own measurements (a consistency check, not a prediction) or a calibration run.
#pragma once
#include <string>

#include "instrument/comparison.hpp"
#include "kba_shape.hpp"
#include "message_costs.hpp"

namespace sweep3d::model {

// What the run measured (seconds; per-iteration figures are means over the iterations of
// that kind, max over ranks).
struct MeasuredSweepRun {
  KbaShape shape;
  int iterations = 0;
  int fixup_iterations = 0;     // iterations that ran with fixups on
  double total = 0.0;           // the whole iteration loop
  double computation = 0.0;     // sweep compute (kernel) time, whole loop
  double communication = 0.0;   // point-to-point transfer time, whole loop
  double synchronization = 0.0; // point-to-point sync waits (LogGPS split), whole loop
};

struct SweepModelInputs {
  double w_g = 0.0;        // s per cell-angle, iterations without fixups
  double w_g_fixup = 0.0;  // s per cell-angle, iterations with fixups
  double w_before = 0.0;   // s per iteration before the sweeps (source)
  double w_after = 0.0;    // s per iteration after the sweeps (flux error, reductions)
  std::string w_source;    // where W_g, W_before, W_after came from
  MachineCosts machine;
  std::string machine_source;  // the machine file
};

void add_sweep_predictions(instrument::Comparison& table, const MeasuredSweepRun& run,
                           const SweepModelInputs& in);

}  // namespace sweep3d::model
