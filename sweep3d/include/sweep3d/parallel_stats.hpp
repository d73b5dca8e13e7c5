// The parallel statistics the original prints in its header (spec §7.3), computed with the
// original's integer and single-precision arithmetic so the printed digits agree.
#pragma once
#include "sweep3d/deck.hpp"
#include "sweep3d/decomposition.hpp"

namespace sweep3d {

struct HeaderStats {
  int pipelined_blocks = 0;       // kb*mmo
  long long messages = 0;         // point-to-point sends per iteration, all ranks
  double domain_efficiency = 0;   // percent: 100.0*e1
  double task_efficiency = 0;     // percent: 100.0*e2 (ncpu-way SMP estimate)
  double combined_efficiency = 0; // percent: (100.0*e1)*e2
  double memory_mb = 0;           // the original's estimate per domain
};

// `rank0` is the decomposition of rank 0 (largest it, jt).
HeaderStats header_stats(const Deck& deck, const KbaDecomposition& rank0);

}  // namespace sweep3d
