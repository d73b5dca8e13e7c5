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
//
// What it does not see: the host's contention for the caches and memory. Its block (60 KB)
// stays in the core's own caches, and W_g of a real deck is paid out of the shared L3 and
// memory. In a sweep3d-scaling campaign on the Zen 5 guest (2026-12-08) one of three
// calibration runs of input50 swept at W_g 2.43 ns against 1.99 in the two others while its
// check read 83.2 ns against 78.6-78.9 (1.06x, not marked); the run it priced read +9.1% in
// T_iter, 15 points above its siblings. A check 32^3 cells deep (2 MB, P1) tracked the two vCPUs' W_g no better (88-92 against
// 86-88 ns, while W_g read 1.11-1.26 against 1.04-1.06 ns), and one that streams what a run
// streams would cost what the run costs.
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
