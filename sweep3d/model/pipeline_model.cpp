#include "sweep3d/model/pipeline_model.hpp"

#include <algorithm>

namespace sweep3d::model {

namespace {

// Pipeline starts along an axis in one iteration: the first octant, then every octant whose
// sign on the axis differs from the previous one's. Signs as sweep3d::octant(iq) and
// kba_program.cpp: I is bit 2 of iq - 1, J bit 1 (bit 0, K, stays on the rank).
int starts_along(int bit) {
  int starts = 1;
  for (int iq = 2; iq <= 8; ++iq) starts += (((iq - 1) >> bit) & 1) != (((iq - 2) >> bit) & 1);
  return starts;
}

}  // namespace

// Why these counts (the paper's §4.2-4.3 argument, per axis; eq. 6-7 when every sweep runs
// one way). Sweep3D's blocks run, per rank: receive I, receive J, compute, send I, send J.
//
// Computation. A block starts when the same block of its upstream neighbours and its own
// previous block are done: a sweep crosses Px + Py - 1 diagonals and each further sweep in
// the same direction adds one stage (eq. 6). When an axis reverses, the new direction's
// first rank on it is the old direction's last, which finished P_a - 1 stages after the old
// first: each start of the axis' pipeline adds P_a - 1 stages, and the axes add (a path's
// length through the grid is a sum over the axes). An iteration: N_sweep + sum_a F_a (P_a - 1)
// stages, F_I = 2, F_J = 4 (the LogGP model's StartP terms count the same fills).
//
// Communication, faces above the eager limit (the paper's synchronous blocking sends). A
// message is one stage of both its ranks, and a rank's messages go in program order.
// - A grid (Px, Py >= 2): the paper's repetition delay 4 holds on every one, 2 x 2 included
//   (where no rank has more than 2 messages a block): rank (0,0)'s next east message waits
//   for (1,0)'s south message, which waits for (1,1)'s receive from the west, i.e. for
//   (0,1)'s east message, which follows (0,0)'s south message: 4 stages. An axis' messages
//   go on every other stage while its pipeline fills (a rank sends I before J and receives I
//   before J; eq. 4 is the sum over the axes), so a fill is 2(P_a - 1) stages, and it takes
//   the place of the axis' 2 stages of the repetition delay in its first block: with one
//   start per axis the count is eq. 7, 2(Px - 1) + 2(Py - 1) + 4(N_sweep - 1).
// - A chain of P: a middle rank receives, then sends: d = 2; with P = 2 a rank only sends or
//   only receives in a sweep: d = 1. A fill is P - 1 stages (one message a hop), in place of d.
// Faces at or below the eager limit. A send returns without its receiver, so a rank never
// waits for its downstream neighbour: the path repeats on the busiest rank, one call per
// neighbour a block, d = min(Px - 1, 2) + min(Py - 1, 2). A rank's second send no longer
// waits for its first one's receiver, so a fill takes one message a hop, P_a - 1 on any grid;
// the fills are paid on the way to the busiest rank, on other ranks, and replace none of its
// calls.
//
// Checked against the measured critical path (input50, mk 10, mmi 3, N_sweep = 80, every
// iteration): 1 x 2 (12000 B faces) 84 blocks and 80 messages, 2 x 1 82 and 80, exactly the
// counts here (eq. 6-7 as printed: 81 and 318; with a chain's d = 2: 159); 2 x 2 (6000 B,
// eager; 4 ranks on 2 cores) 86 blocks, 162-166 messages against 166 here.
// A max-plus count of the task graph with waiting sends (blocks in this order, a message a
// stage of both ranks) gives these counts on chains and on grids with Px = 2 for any Py;
// with Px >= 3 it finds 2 messages more an iteration (334 against 332 at 3 x 3, N_sweep 80),
// which the closed form leaves out.
PipelineSweeps predict_pipeline(const KbaShape& s, double w_g, const MachineCosts& machine, const FaceWork& faces) {
  PipelineSweeps p;
  const int px = s.npe_i, py = s.npe_j;
  p.n_sweep = 8.0 * s.mmo() * s.kb();
  // Rank 0 holds the largest block.
  p.t_cpu = faces.volume_w(w_g) * s.block_cell_angles(0, 0) + faces.mean_block_seconds(s);
  p.starts_i = starts_along(2);
  p.starts_j = starts_along(1);
  p.comp_stages = p.n_sweep + p.starts_i * (px - 1.0) + p.starts_j * (py - 1.0);
  if (px * py > 1) {
    const std::int64_t bytes = std::max(px > 1 ? s.i_face_bytes(0) : 0, py > 1 ? s.j_face_bytes(0) : 0);
    const MessageCosts face = after_kernel_blocks(machine, s.block_bytes(0, 0)).message(bytes);
    p.t_msg = face.total_comm;  // both ends after a block
    p.synchronous = face.handshake;
    const bool grid = px > 1 && py > 1;
    // Per axis: its fill and the part of the repetition delay a fill replaces.
    auto fill = [&](int pa) { return pa < 2 ? 0.0 : grid && p.synchronous ? 2.0 * (pa - 1) : pa - 1.0; };
    auto neighbours = [](int pa) { return std::min(pa - 1, 2); };  // a rank's, on the axis
    p.repetition_delay = p.synchronous && grid ? 4.0 : neighbours(px) + neighbours(py);
    auto replaced = [&](int pa) {
      if (!p.synchronous || pa < 2) return 0.0;
      return grid ? 2.0 : p.repetition_delay;
    };
    p.fill_stages = fill(px) + fill(py);  // of one sweep: eq. 4, else one message a hop
    p.comm_stages = p.repetition_delay * p.n_sweep + p.starts_i * (fill(px) - replaced(px)) +
                    p.starts_j * (fill(py) - replaced(py));
  }
  p.t_comp = p.comp_stages * p.t_cpu;
  p.t_comm = p.comm_stages * p.t_msg;
  return p;
}

}  // namespace sweep3d::model
