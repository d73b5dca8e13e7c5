#include "pipeline_model.hpp"

#include <algorithm>

namespace sweep3d::model {

PipelineSweeps predict_pipeline(const KbaShape& s, double w_g, const MachineCosts& machine) {
  PipelineSweeps p;
  const int px = s.npe_i, py = s.npe_j;
  p.n_sweep = 8.0 * s.mmo() * s.kb();
  p.t_cpu = w_g * s.block_cell_angles(0, 0);  // rank 0 holds the largest block
  if (px * py > 1) {
    const std::int64_t bytes = std::max(px > 1 ? s.i_face_bytes(0) : 0, py > 1 ? s.j_face_bytes(0) : 0);
    p.t_msg = machine.message(bytes).total_comm;
  }
  p.t_comp = ((px + py - 1) + (p.n_sweep - 1)) * p.t_cpu;
  p.t_comm = px * py > 1 ? (2.0 * (px + py - 2) + 4.0 * (p.n_sweep - 1)) * p.t_msg : 0.0;
  return p;
}

}  // namespace sweep3d::model
