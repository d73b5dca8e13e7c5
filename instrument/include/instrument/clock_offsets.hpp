// Offsets between the steady_clocks of ranks on different hosts, so that a gathered trace
// has one time base. Ranks of one node share CLOCK_MONOTONIC and need none.
//
// Method (Cristian 1989): rank 0 sends a probe, the rank answers with its steady_clock
// reading t_r, rank 0 notes its send and receive times t0, t1. Then the rank's clock minus
// rank 0's is t_r - (t0 + t1) / 2, known to within (t1 - t0) / 2; of kOffsetRounds rounds
// the one with the smallest round trip is kept (the least disturbed by queueing).
#pragma once
#include <mpi.h>

#include <vector>

namespace instrument {

inline constexpr int kOffsetRounds = 16;

struct ClockOffsets {
  std::vector<double> offset;       // [nranks] s: the rank's steady_clock minus root's
  std::vector<double> uncertainty;  // [nranks] s: half the kept round trip (0 if not probed)
};

// Collective over comm. `probe[r]` (the same on every rank) says which ranks to measure;
// the others get 0. Valid on `root` only.
ClockOffsets estimate_clock_offsets(MPI_Comm comm, const std::vector<int>& probe, int root = 0);

}  // namespace instrument
