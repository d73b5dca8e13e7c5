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
// Not modelled (issue 39, measured on MPICH 4.0.2 ch4:ucx, 2 ranks on one AMD EPYC VM): the
// first allreduce after the sweep costs ~15-20 us on the measured path while the probe's cold
// allreduce at the same working set is ~1.5-2 us. A two-rank program with no working set at
// all shows the same: after 10-40 face messages one way (compute between, as the sweep), the
// first collective takes 15-35 us and the next ~2 us; after 0-2 messages ~1-2 us, with
// UCX_TLS=posix or sysv, eager or rendezvous sizes and any MPICH allreduce algorithm alike.
// It is a cost of the MPI library's state after a message stream, not of the caches.
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

}  // namespace sweep3d::model
