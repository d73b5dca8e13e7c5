// multigrid's speed check (instrument/speed_check.hpp): a fixed piece of the smoother, the
// cycle's own cell loop (apply_cells with a one-thread split, in the build the run uses) and
// damped Jacobi's node pass, swept over the finest grid of a 3^3 Kuhn cube refined twice
// (10368 cells, 2197 nodes, held whole: ~0.2 MB, cache-resident), made right before the first
// cycle and right after the last on every rank. A pass is 32 sweeps (0.5-0.8 ms with the
// AVX-512 build on the Zen 5 guest: 1.5-1.6 ns a cell and sweep, 2.4-2.7 in the host's slow
// spells), five passes a check: ~5-8 ms a run, outside every timed phase, and the problem's
// build once (~8 ms, in the first check's call, before its clock starts).
//
// Why the run's build: the check is to move with the cycle's cell loop when the host slows
// the CPU; another build (2-3x apart, README.md) reads another figure, so a calibration made
// with another --cell-kernel also differs here (describe() already flags its C1).
#pragma once

#include "multigrid/p1_operator.hpp"

namespace mg {

// What the check's figure is of, for the lines that print it.
inline constexpr const char* kSpeedCheckWhat = "a fixed smoothing sweep's cell (10368 cells x 32 sweeps)";

// The median over five passes of one pass's time per cell and sweep, ns. Touches none of the
// run's data: the problem is its own, built on the first call and kept.
double speed_check_ns(CellKernel kernel);

}  // namespace mg
