#include "sweep3d/model/iteration_model.hpp"

namespace sweep3d::model {

IterationWork iteration_work(const KbaShape& s, const WorkCalibration& cal, const MachineCosts& machine) {
  const double cells = static_cast<double>(s.it_of(0)) * s.jt_of(0) * s.kt;  // rank 0 holds the most
  IterationWork w;
  w.w_before = cal.w_before_s_per_cell * cells;
  w.w_after = cal.w_after_s_per_cell * cells;
  const int nranks = s.npe_i * s.npe_j;
  // The first follows the flux error, which streamed the rank's arrays: cold; the second
  // follows the first at once: warm.
  if (machine.allreduce) w.reductions = cold_allreduce8(machine, nranks, s.rank_bytes(0, 0)) + machine.allreduce(nranks, 8);
  return w;
}

double reductions_seconds(const KbaShape& s, const MachineCosts& machine, double since_previous) {
  if (!machine.allreduce) return 0.0;
  const int nranks = s.npe_i * s.npe_j;
  // The kernel goes through the rank's arrays in every octant: its working set is all of them.
  if (const auto after = allreduce8_after_stream(machine, nranks, since_previous, s.rank_bytes(0, 0)))
    return after->first + after->second;
  return cold_allreduce8(machine, nranks, s.rank_bytes(0, 0)) + machine.allreduce(nranks, 8);
}

}  // namespace sweep3d::model
