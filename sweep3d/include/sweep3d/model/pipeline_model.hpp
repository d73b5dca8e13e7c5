// The pipelined-wavefront model of Hoisie, Lubeck & Wasserman (eq. 1-7):
//   N_sweep = octants x angle blocks x k-blocks = 8 mmo kb
//   T_comp  = [(Px + Py - 1) + (N_sweep - 1)] T_cpu                       (6)
//   T_comm  = [2(Px + Py - 2) + 4(N_sweep - 1)] T_msg                     (7)
// with T_cpu the time of one block (W_g x cell-angles of the block of the largest rank) and
// T_msg the one-way time of a send/receive pair of the face message (LogGP Total_Comm of
// the larger of the two face messages; the paper's t0 + bytes/B).
//
// Eq. 7's stage counts come from §4.3's argument for a 2-D grid: south-going messages in the
// first column go out on every other step (a processor there sends east before south), so
// the fill takes 2(Py - 1) + 2(Px - 1) stages, and a processor repeats after 4 (it receives
// from the west and north and sends east and south). On a 1-D chain (Px = 1 or Py = 1) the
// same argument gives P - 1 fill stages (nothing to send first) and a repetition delay of 2
// (one receive, one send), and that is what is used there; eq. 7 as printed would charge a
// 1 x 2 run twice its messages.
//
// Like the LogGP model's breakdown, T_comp is the computation on the critical path (the fill
// of Px + Py - 1 stages, then one block per further sweep) and T_comm its communication; a
// run measures them on its measured critical path. The model does not distinguish blocking
// from non-blocking sends.
#pragma once
#include "sweep3d/model/kba_shape.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

struct PipelineSweeps {
  double n_sweep = 0.0;
  double fill_stages = 0.0, repetition_delay = 0.0;  // of the communication pipeline
  double t_cpu = 0.0, t_msg = 0.0;
  double t_comp = 0.0, t_comm = 0.0;
  double total() const noexcept { return t_comp + t_comm; }  // the sweeps of one iteration
};

PipelineSweeps predict_pipeline(const KbaShape& shape, double w_g, const MachineCosts& machine);

}  // namespace sweep3d::model
