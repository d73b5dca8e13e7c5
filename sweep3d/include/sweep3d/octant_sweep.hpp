// One transport sweep of a rank's sub-domain: the 8 octants in order, each as KBA blocks of
// mk k-planes x mmi angles, with the original's messages (spec §7.2), boundary conditions
// and leakage sums (spec §4).
//
// Per block, in the original's order: I-inflow (receive from the upstream E/W neighbour or
// boundary), J-inflow (N/S), the kernel, I-outflow (send downstream or boundary
// bookkeeping), J-outflow. The K-face is set per angle block and booked after its last
// k-block. Messages go through instrument::Comm, blocking by default as the original, or
// with non-blocking sends (SweepOptions::nonblocking; receives stay blocking).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/recorder.hpp"
#include "instrument/aligned_buffer.hpp"
#include "sweep3d/angle_block.hpp"
#include "sweep3d/decomposition.hpp"
#include "sweep3d/problem.hpp"
#include "sweep3d/sweep_kernel.hpp"

namespace sweep3d {

struct SweepOptions {
  SweepKernel kernel = &sweep_block_ref;
  bool nonblocking = false;  // MPI_Isend for the outflows instead of MPI_Send
  int threads = 1;           // OpenMP threads inside the kernel
};

// What one sweep produced on this rank.
struct SweepResult {
  std::int64_t nfixed = 0;            // fixed cell-angles
  std::array<double, 6> leakage{};    // I-low, I-high, J-low, J-high, K-low, K-high
  std::int64_t cell_angles = 0;       // cell-angles solved
};

class OctantSweep {
 public:
  OctantSweep(const Problem& problem, const KbaDecomposition& decomposition, instrument::Comm& comm,
              instrument::Recorder& recorder, const SweepOptions& options);

  // Sweeps the 8 octants: flux (zeroed by the caller) accumulates the moments of `src`.
  SweepResult run(const double* src, double* flux, bool fixup);

  // Bytes of the face, message and reflection arrays this sweep holds.
  std::size_t bytes() const;

  // One face message each way with every neighbour, from each send buffer into the receive
  // buffer the sweeps use, outside the recorder (no phase, trace event or count). Collective
  // over the ranks. The first rendezvous message between two ranks costs ~0.5 ms in MPICH's
  // UCX device (measured in the trace of a 1x2 input50 run: 526-588 us against 7-16 us in
  // the later iterations), a one-time set-up the models have no term for; made here, in
  // the run's set-up, the timed iterations are the steady ones the models price.
  void connect_neighbours();

 private:

  struct FaceAxis;
  FaceAxis axis(int which, const AngleBlock& ab);
  void inflow(const FaceAxis& x, const AngleBlock& ab, int nk, int k_first, std::array<double, 6>& leak);
  void outflow(const FaceAxis& x, const AngleBlock& ab, int nk, int k_first, std::array<double, 6>& leak);
  void k_inflow(const AngleBlock& ab, std::array<double, 6>& leak);
  void k_outflow(const AngleBlock& ab, std::array<double, 6>& leak);
  double* send_buffer(int axis);
  void send(int axis, double* buf, int dest, int tag);
  void complete_sends();

  const Problem& p_;
  const KbaDecomposition& d_;
  instrument::Comm& comm_;
  instrument::Recorder& rec_;
  SweepOptions opt_;
  std::vector<AngleBlock> blocks_;  // [iq-1][mo-1]
  int ls_ = 1;                       // face lane stride
  int i_count_ = 0, j_count_ = 0;    // message sizes: jt*mk*mmi, it*mk*mmi
  instrument::AlignedBuffer iface_, jface_, kface_;
  instrument::AlignedBuffer i_recv_, j_recv_;
  std::vector<instrument::AlignedBuffer> send_ring_[2];
  std::vector<instrument::Comm::Request> send_req_[2];
  int ring_next_[2] = {0, 0};
  // Reflected outflows (spec §4): I per (j-sign, k-sign), J per k-sign, K one slot.
  instrument::AlignedBuffer refl_i_, refl_j_, refl_k_;
  instrument::PhaseId ph_compute_, ph_compute_fixup_;
  instrument::CounterId ct_cell_angles_, ct_cell_angles_fixup_, ct_fixups_, ct_blocks_;
};

}  // namespace sweep3d
