// Puts the two sweep models beside a measured Sweep3D run: the rows of the side-by-side
// table and the model terms.
//
// Every row compares one quantity measured and modelled:
//   totals   T_iter (mean) and T_total: the iterations' wall time (the largest over ranks of
//            each rank's summed `iteration` phase);
//   parts    the iteration on its MEASURED critical path (instrument/critical_path.hpp),
//            split as the models split it: W_before (the source), the sweeps' computation
//            (local work on the path: kernel, face copies; model: the W terms along eq. 6-8's path, or HLW's
//            T_comp), the sweeps' communication (their MPI calls on the path: message calls,
//            flight, handshakes; model: Send/Receive/Total_Comm
//            plus the L terms, or HLW's T_comm), W_after (the flux error) and the convergence
//            reductions. Per iteration: each row the median over the traced iterations of
//            its own time on that iteration's path, beside the median of the model's term over
//            the same iterations (the term moves only where fixups start). The model prices a
//            steady iteration: the mean would charge a row with the first iteration's
//            first-use costs and with any one iteration's detour (a preempted vCPU put 219 us
//            into one of twelve iterations' 7 us of reductions), which no term prices; tycho
//            (iterations 2 on) and multigrid (the median cycle) score steady iterations too.
//            The totals keep the mean: they are the run's wall time.
// The LogGP model's split of the sweeps' non-compute time into communication and
// synchronization has no measured counterpart (a critical path does not tell a late partner's
// L from a message's L): those two are printed as model terms, not scored.
//
// W_g, W_before, W_after come from a calibration run (calibration.hpp), whose description
// every row's source names, so a reader always sees what fed the model.
#pragma once
#include <string>
#include <vector>

#include "instrument/comparison.hpp"
#include "sweep3d/model/calibration.hpp"
#include "sweep3d/model/kba_shape.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

// Seconds of one iteration by the models' parts: measured on its critical path (other: the
// untimed loop bookkeeping between the phases, which no model term prices), or modelled
// (other 0).
struct IterationParts {
  double w_before = 0.0, computation = 0.0, communication = 0.0, w_after = 0.0, reductions = 0.0;
  double other = 0.0;
  double total() const noexcept { return w_before + computation + communication + w_after + reductions + other; }
  IterationParts& operator+=(const IterationParts& o) {
    w_before += o.w_before;
    computation += o.computation;
    communication += o.communication;
    w_after += o.w_after;
    reductions += o.reductions;
    other += o.other;
    return *this;
  }
};

struct MeasuredSweepRun {
  KbaShape shape;
  SendMode mode = SendMode::blocking;
  std::vector<bool> fixups_on;  // per iteration, in order
  double total = 0.0;           // seconds: the largest over ranks of the summed iteration phase
  // The first N iterations' measured critical paths, in order (N = 0: the run was not traced).
  std::vector<IterationParts> path;
};

struct SweepModelInputs {
  WorkCalibration calibration;
  MachineCosts machine;
  std::string machine_source;  // the machine file
};

void add_sweep_predictions(instrument::Comparison& table, const MeasuredSweepRun& run, const SweepModelInputs& in);

}  // namespace sweep3d::model
