// The W-cycle at process counts this machine does not have: the hierarchy partitioned into P
// parts as a run would partition it (METIS on the finest grid, inheritance below), every
// superstep's messages counted from the same exchange sets the run builds, and the cycle
// replayed by the suite's LogGOPS simulator (instrument/replay.hpp) beside eq. 5 at that P.
//
// A superstep on process r becomes: compute (C1 x its cells on that grid for an operator
// application; nothing for a transfer, whose work is a few operations per node), an irecv
// from and an isend to each peer with the bytes the exchange moves, the waits, and a
// barrier (bsp_sync). C1 comes from a calibration run; the machine's LogGOPS terms from
// loggps-probe's file. No constant of the projection is fitted to what it predicts.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "instrument/replay.hpp"
#include "multigrid/cycle.hpp"
#include "multigrid/hierarchy.hpp"

namespace mg {

// What one superstep of the cycle is.
struct CycleStep {
  int level = 0;  // grids[level]; 0 the coarsest
  enum Kind { apply, restrict, prolong } kind = apply;
};

// The supersteps of one cycle in order, as cycle.cpp runs them (each smoothing iteration
// and residual one apply; Chebyshev and Jacobi alike).
std::vector<CycleStep> cycle_steps(int levels, const CycleOptions& options);

// Per grid and process: cells, and the bytes each exchange sends to each peer.
struct Traffic {
  struct Message {
    std::int32_t peer;
    std::int64_t bytes;
  };
  // [level][rank]; restrict and prolong are indexed by the coarse level.
  std::vector<std::vector<std::int64_t>> cells;
  std::vector<std::vector<std::vector<Message>>> assemble, restrict_sum, prolong_fetch;
  // Most bytes into or out of one process in one application on each grid (eq. 5's h).
  std::vector<double> h_bytes;
};

// `parts` from inherit_parts for `nprocs` parts.
Traffic count_traffic(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts,
                      int nprocs);

// One cycle as a replay program (operations made on demand, so P = 4096 needs no stored
// operation list).
std::unique_ptr<instrument::replay::Program> cycle_program(const Traffic& traffic, const std::vector<CycleStep>& steps,
                                                           std::function<double(double)> c1);

}  // namespace mg
