// One source iteration as the models compose it:
//   T_iter = W_before + T_sweeps + W_after + T_reductions
// W_before is the source computation and W_after the flux error, measured per local cell on a
// calibration run (Sundaram-Stukel & Vernon's measured W_before, W_after) and scaled to the
// largest rank's cells; T_sweeps is a sweep model (LogGP or pipeline); T_reductions are the
// convergence test's two 8-byte MPI_Allreduce (fixups summed, error maxed): the first right
// after the flux error streamed the rank's arrays, priced by the probe's cold allreduce at the
// rank's bytes (cold_allreduce8; the LogGP allreduce when the machine file has no cold
// figures or the shape no bytes_per_cell), the second at once after it, warm
// (MachineCosts::allreduce, from the LogGP parameters).
// With the probe's after-stream figures (loggp.after_stream.*), both are priced by them
// instead (reductions_seconds, the comparison's rows): the first collective after the
// sweeps' one-way message stream costs what the probe measured at the same time since the
// previous collective with the ranks streaming the rank's arrays (rank_bytes: on a PVM guest
// the kernel's own streaming makes that first collective 2-3x dearer than spinning ranks'
// does), the second what it measured right after (issue 39, MPICH 4.0.2
// ch4:ucx, 2 ranks on one AMD EPYC VM: ~15-20 us after a 1x2 input50 iteration, ~1 us for
// the second; probe_cold.hpp says why it follows that interval and not the message count).
// That interval is the iteration less its reductions, W_before + sweeps + W_after, by the
// model being scored. iteration_work (used by sweep3d-model's projections too) keeps the
// cold/warm pricing: it has no sweep time.
#pragma once
#include "sweep3d/model/calibration.hpp"
#include "sweep3d/model/kba_shape.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

struct IterationWork {
  double w_before = 0.0, w_after = 0.0, reductions = 0.0;  // seconds per iteration
  double total() const noexcept { return w_before + w_after + reductions; }
};

IterationWork iteration_work(const KbaShape& shape, const WorkCalibration& cal, const MachineCosts& machine);

// The two reductions of an iteration whose first is entered `since_previous` seconds after
// the previous iteration's (W_before + sweeps + W_after): the probe's after-stream pair at
// that interval when the machine file has it and since_previous > 0 (the second measured
// right after the first, as the app calls it); else the cold allreduce at the rank's bytes
// (or the LogGP one) and the warm LogGP allreduce.
double reductions_seconds(const KbaShape& shape, const MachineCosts& machine, double since_previous);

}  // namespace sweep3d::model
