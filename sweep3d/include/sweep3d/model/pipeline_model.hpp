// The pipelined-wavefront model of Hoisie, Lubeck & Wasserman (eq. 1-7):
//   N_sweep = octants x angle blocks x k-blocks = 8 mmo kb
//   T_comp  = [(Px + Py - 1) + (N_sweep - 1)] T_cpu                       (6)
//   T_comm  = [2(Px + Py - 2) + 4(N_sweep - 1)] T_msg                     (7)
// with T_cpu the time of one block (W_g x cell-angles of the block of the largest rank) and
// T_msg the one-way time of a send/receive pair of the face message (LogGP Total_Comm of
// the larger of the two face messages; the paper's t0 + bytes/B).
//
// Eq. 6-7 count one pipeline: every sweep in the same direction. Sweep3D's octants are not:
// the octant order (kba_program.hpp: the I sign is bit 2 of iq - 1, the J sign bit 1)
// reverses the J direction at every octant pair and the I direction once, and a reversed
// axis must fill again (its new first rank is the old last one). The model here applies the
// paper's own argument (§4.2-4.3: stage counts from the order of a rank's receives and sends)
// to each axis a separately, with F_a its pipeline starts an iteration (F_I = 2, F_J = 4),
// and to grids the paper does not treat (a chain, 2 x 2); pipeline_model.cpp derives it:
//   T_comp = [N_sweep + sum_a F_a (P_a - 1)] T_cpu
//   T_comm = [d N_sweep + sum_a F_a (fill_a - r_a)] T_msg
// d the repetition delay, fill_a the axis's fill stages, r_a its share of d that a fill
// replaces. With one start per axis (F = 1) and synchronous messages T_comm is eq. 7 exactly.
//
// Like the LogGP model's breakdown, T_comp is the computation on the critical path (the
// fills, then one block per further sweep) and T_comm its communication; a run measures them
// on its measured critical path.
#pragma once
#include "sweep3d/model/face_work.hpp"
#include "sweep3d/model/kba_shape.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

struct PipelineSweeps {
  double n_sweep = 0.0;
  // The communication pipeline of one direction (the paper's N_s and d): fill stages of a
  // single sweep (Figure 6: 12 on 4 x 4) and the stages between two sweeps.
  double fill_stages = 0.0, repetition_delay = 0.0;
  bool synchronous = false;  // face messages above the eager limit: a send waits for its receive
  int starts_i = 0, starts_j = 0;  // pipeline starts an iteration along I and J (F_I, F_J)
  double comp_stages = 0.0, comm_stages = 0.0;  // of one iteration: T_comp / T_cpu, T_comm / T_msg
  double t_cpu = 0.0, t_msg = 0.0;
  double t_comp = 0.0, t_comm = 0.0;
  double total() const noexcept { return t_comp + t_comm; }  // the sweeps of one iteration
};

// `faces`: T_cpu takes a chain's mean face work a block (face_work.hpp).
PipelineSweeps predict_pipeline(const KbaShape& shape, double w_g, const MachineCosts& machine,
                                const FaceWork& faces = {});

}  // namespace sweep3d::model
