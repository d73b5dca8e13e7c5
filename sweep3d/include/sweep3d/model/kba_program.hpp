// KbaProgram: one source iteration of sweep3d as a program for the replay engine
// (instrument/replay.hpp), generated from a KbaShape without running anything, so the
// replay can carry the sweep to process grids this machine does not have.
//
// Per rank, in the order src/source_iteration_loop.cpp and src/octant_sweep.cpp call them:
//   compute W_before (the source)
//   octants iq = 1..8 (si = bit 2 of iq-1, sj = bit 1, sk = bit 0; + means towards higher
//   index), angle blocks mo = 1..mmo, k-blocks kk = 1..kb, each block:
//     recv I from upstream in I (if any)   tag (si > 0 ? 1000 : 3000) iq, jt mk mmi doubles
//     recv J from upstream in J (if any)   tag (sj > 0 ? 2000 : 4000) iq, it mk mmi doubles
//     compute                              W_g x it jt nk mmi (nk: planes of this k-block)
//     send I downstream (if any)           MPI_Send, or with --nonblocking: wait for the
//     send J downstream (if any)           request two sends back on this axis (the ring of
//                                          two buffers), then MPI_Isend
//   (--nonblocking) complete_sends: per axis with a neighbour, the requests still pending
//   compute W_after (the flux error)
//   allreduce 8 bytes (fixups summed), allreduce 8 bytes (error maxed)
// Messages carry the full mk planes even for a thinner last k-block, as the original.
// Receives are blocking in both modes. Rank 0's monitor line is left out (no model has it).
//
// op(rank, i) is computed on the fly in O(1): the sequence of a rank depends on its
// coordinates only through which of its four neighbours exist, so the layout (where each
// octant starts, how many ops a block has) is precomputed for those 16 cases, and a
// 65536-rank program costs a few kilobytes.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "instrument/replay.hpp"
#include "instrument/replay_memory.hpp"
#include "sweep3d/model/kba_shape.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

// What the computes cost, from a calibration (calibration.hpp) or the command line.
struct KbaCosts {
  double w_g = 0.0;  // s per cell-angle of a block
  // W_before and W_after of a rank: per_cell x its local cells + fixed.
  double w_before_s_per_cell = 0.0, w_after_s_per_cell = 0.0;
  double w_before_s = 0.0, w_after_s = 0.0;
};

class KbaProgram final : public instrument::replay::Program {
 public:
  // shape.mk must be in [1, kt] and shape.mmi a factor of shape.mm (as KbaShape says).
  KbaProgram(const KbaShape& shape, const KbaCosts& costs, SendMode mode);

  int ranks() const override { return shape_.npe_i * shape_.npe_j; }
  std::int64_t size(int rank) const override;
  instrument::replay::Op op(int rank, std::int64_t index) const override;
  // e.g. "op 17: octant 2, angle block 1, k-block 3: recv J from rank 4 (tag 4000, 96 B)"
  std::string describe(int rank, std::int64_t index) const override;

  // What the replay engine will hold for this program (replay_memory.hpp): the operations and
  // channels counted, the messages in flight as measured on the engine (kba_program.cpp).
  instrument::replay::ProgramCounts counts() const;

  // Tags of the face messages of octant iq (1..8), as octant_sweep.cpp.
  static int tag_i(int iq);
  static int tag_j(int iq);

 private:
  static constexpr int kAxes = 2;  // 0: I (west/east), 1: J (south/north)
  // The part of a rank's sequence that one octant makes.
  struct OctantLayout {
    std::int64_t start = 0, size = 0;  // first op, op count
    std::array<bool, kAxes> up{}, down{};
    std::array<std::int64_t, kAxes> sends_before{};  // sends on the axis in earlier octants
    int full_block = 0;  // ops of a block that waits before each of its sends
  };
  // One of the 16 neighbour cases (bit 0 west, 1 east, 2 south, 3 north).
  struct RankLayout {
    std::array<OctantLayout, 8> octants;
    std::array<std::int64_t, kAxes> sends{};  // sends per axis in the sweep
    std::array<bool, kAxes> has_neighbour{};
    std::int64_t sweep_end = 0;   // first op after the octants
    int final_waits = 0;          // complete_sends
    std::int64_t size = 0;
  };
  // An op with where it comes from.
  struct Decoded {
    instrument::replay::Op op;
    int iq = 0, mo = 0, kk = 0;  // 0 outside the octants
    const char* what = "";
  };

  int neighbour_case(int rank) const;
  std::int64_t block_start(const OctantLayout& o, std::int64_t block) const;
  bool waits_before_send(const OctantLayout& o, int axis, std::int64_t block) const;
  Decoded decode(int rank, std::int64_t index) const;
  Decoded decode_block(int rank, const OctantLayout& o, int iq, std::int64_t block, std::int64_t pos) const;

  KbaShape shape_;
  KbaCosts costs_;
  bool nonblocking_;
  std::int64_t blocks_per_octant_;
  std::array<RankLayout, 16> layouts_;
};

}  // namespace sweep3d::model
