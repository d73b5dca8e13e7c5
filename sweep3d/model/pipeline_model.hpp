// The pipelined-wavefront model of Hoisie, Lubeck & Wasserman (eq. 1-7):
//   N_sweep = octants x angle blocks x k-blocks = 8 mmo kb
//   T_comp  = [(Px + Py - 1) + (N_sweep - 1)] T_cpu                       (6)
//   T_comm  = [2(Px + Py - 2) + 4(N_sweep - 1)] T_msg                     (7)
// with T_cpu the time of one block (W_g x cell-angles of the block of the largest rank) and
// T_msg the one-way time of a send/receive pair of the face message (LogGP Total_Comm of
// the larger of the two face messages; the paper's t0 + bytes/B).
//
// Like the LogGP model's breakdown, T_comp is the computation on the critical path (the fill
// of Px + Py - 1 stages, then one block per further sweep) and T_comm its communication; a
// run measures them on its measured critical path. The model does not distinguish blocking
// from non-blocking sends.
#pragma once
#include "kba_shape.hpp"
#include "message_costs.hpp"

namespace sweep3d::model {

struct PipelineSweeps {
  double n_sweep = 0.0;
  double t_cpu = 0.0, t_msg = 0.0;
  double t_comp = 0.0, t_comm = 0.0;
  double total() const noexcept { return t_comp + t_comm; }  // the sweeps of one iteration
};

PipelineSweeps predict_pipeline(const KbaShape& shape, double w_g, const MachineCosts& machine);

}  // namespace sweep3d::model
