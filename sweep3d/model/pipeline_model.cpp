#include "sweep3d/model/pipeline_model.hpp"

#include <algorithm>

namespace sweep3d::model {

PipelineSweeps predict_pipeline(const KbaShape& s, double w_g, const MachineCosts& machine) {
  PipelineSweeps p;
  const int px = s.npe_i, py = s.npe_j;
  p.n_sweep = 8.0 * s.mmo() * s.kb();
  p.t_cpu = w_g * s.block_cell_angles(0, 0);  // rank 0 holds the largest block
  if (px * py > 1) {
    const std::int64_t bytes = std::max(px > 1 ? s.i_face_bytes(0) : 0, py > 1 ? s.j_face_bytes(0) : 0);
    p.t_msg = after_kernel_blocks(machine, s.block_bytes(0, 0)).message(bytes).total_comm;  // both ends after a block
  }
  const bool chain = px == 1 || py == 1;
  if (px * py > 1) {
    p.fill_stages = chain ? px * py - 1 : 2.0 * (px + py - 2);  // eq. 4, or a chain's P - 1
    p.repetition_delay = chain ? 2.0 : 4.0;
  }
  p.t_comp = ((px + py - 1) + (p.n_sweep - 1)) * p.t_cpu;
  p.t_comm = (p.fill_stages + p.repetition_delay * (p.n_sweep - 1)) * p.t_msg;  // eq. 7
  return p;
}

}  // namespace sweep3d::model
