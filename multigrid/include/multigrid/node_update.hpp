// The smoothers' passes over a level's local nodes after an application y = A u (cycle.cpp).
// Each reads y and writes it back as 0, so y is ready for the next application without a
// pass of its own (BENCHMARKS.md: the node pass runs at the memory's bandwidth, so a pass
// saved is time saved). `threads` OpenMP threads share a pass (CycleOptions::threads), each
// taking min_per_thread nodes or more (fewer threads on a short pass), with the bits of one.
#pragma once
#include <cstddef>

#include "multigrid/cell_loop_split.hpp"
#include "multigrid/local_level.hpp"

namespace mg {

// Damped Jacobi: x += w D^-1 (b - y) at the free nodes.
void jacobi_update(LocalLevel& L, double w, int threads = 1,
                   std::size_t min_per_thread = kMinNodesPerThread);

// Chebyshev's first pass, after y = A x: z = D^-1 (b - y) (0 at Dirichlet nodes), d = z /
// theta, and the step x += d. z is L.r, d is L.d.
void chebyshev_first_update(LocalLevel& L, double theta, int threads = 1,
                            std::size_t min_per_thread = kMinNodesPerThread);

// Chebyshev's later passes, after y = A d: z -= D^-1 y, d = keep d + step z, x += d.
void chebyshev_update(LocalLevel& L, double keep, double step, int threads = 1,
                      std::size_t min_per_thread = kMinNodesPerThread);

}  // namespace mg
