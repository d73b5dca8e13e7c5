// sweep3d's speed check (instrument/speed_check.hpp): a fixed block solve, the run's own
// kernel (reference or fast, its instruction set) on one thread, over a built-in 16 x 16 x 10
// block of the S6 P0 problem in all eight octants, two angle blocks of mmi = 3 each (2560
// cells x 48 angles a pass), with fixed inflow and source and no fixups; made right before the
// timed iteration loop and right after it on every rank, outside every timed phase.
//
// Why the run's kernel and not a fixed one: a calibration's W_g is the run's kernel's, and a
// calibration of another kernel is refused before the run (model/calibration.hpp), so the two
// figures a run compares are always one kernel's. Why mmi = 3 whatever the run's blocking: the
// check is a fixed piece of work, the same in every run of one kernel.
#pragma once

#include "sweep3d/sweep_kernel.hpp"

namespace sweep3d {

// What the check's figure is of, for the lines that print it.
inline constexpr const char* kSpeedCheckWhat = "a fixed block solve's cell in all 48 angles (16 x 16 x 10 cells)";

// The median over nine passes of one pass's time per cell (all its 48 cell-angles), ns: per
// cell rather than per cell-angle so that the figure, printed to 0.1 ns, resolves well within
// the 1.15x that marks a run (~75 ns on the Zen 5 guest).
double speed_check_ns(SweepKernel kernel);

}  // namespace sweep3d
