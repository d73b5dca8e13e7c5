// What a run prints and compares: the grids, the phases, and the two predictions of the
// measured W-cycle beside it (eq. 5 and the profiler's replay), as instrument::Comparison
// rows with the source of every constant.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "instrument/comparison.hpp"
#include "instrument/uneven_cpus.hpp"
#include "multigrid/driver.hpp"
#include "multigrid/model/c1_curve.hpp"
#include "multigrid/model/eq5_model.hpp"

namespace mg {

// C1 as this run measured it: the work w of the finest grid's smoothing supersteps per cell a
// process holds (N_1 / p) and application, in seconds (with one grid, its coarse-grid
// smoothing), in the median cycle: the steady cost, without a cycle a first touch of pages or
// a preemption slowed. 0 if the run had none.
double measured_c1(const RunResult& r);

// C1 of cells in no family of 8 (the cell loop takes them one at a time, p1_operator.hpp: 85
// flops to a family's cell's 36.5): the coarsest grid's coarse-solve supersteps' w per cell a
// process holds, whose cells are never in a family, in the median cycle. 0 if the run had none.
double measured_c1_loose(const RunResult& r);

// Each process's time per finest-grid cell by cycle ("cycle 1", ...; cycles joined until each
// process has min_seconds of it, instrument::rates_over_spans: a short run gives none), for
// instrument::mark_if_uneven_cpus: its own w as the profiler recorded it (t_enter - t_begin:
// its computation, not its wait in the sync) summed over the cycle's supersteps that C1 is of
// (the finest grid's smoothing) but the first, over the finest-grid cells it holds
// (GridReport::process_cells) and those supersteps: seconds per cell and application, C1's
// unit; 0 for a process without cells (left out). Every process does the same work per cell,
// so one far slower than another ran on a CPU the host slowed; except that a --partition of the
// finest grid that cuts families leaves loose cells, of 2.3x a family cell's flops
// (p1_operator.hpp), on the processes it cut: a finest grid with some cells loose and some in
// families gives no rates. The first is left out because its w begins at the
// sync before the cycle and holds whatever a process does between cycles (process 0 printed
// the cycle's line there until the lines moved after the last cycle: 13 us beside 20 us of
// work on 12288 cells at --cube 4 --grids 3, P = 2). The supersteps are split into cycles in
// run order, in equal groups (as for C1); none when they do not split evenly, when a cycle has
// fewer than two, or when the profile has no rows per process. Rank 0.
std::vector<instrument::RankRates> cell_rates_by_cycle(const RunResult& r,
                                                       double min_seconds = instrument::kUnevenCpuMinSeconds);

// Eq. 5's inputs for this run's grids and counts with C1 from `c1` at each grid's N_i / p
// (its cells in no family at c1.loose_seconds(), where the calibration recorded it) and
// `machine`'s l and g.
Eq5Inputs eq5_inputs(const RunResult& r, const C1Curve& c1, const bspmodel::BspMachine& machine);

// The rows: eq. 5 (total and per grid), the replay with eq. 3 and (if the machine has
// superstep curves) by pattern; and the replay of this run's profile on `others` (machines
// it did not run on) as model terms only. `c1_from` says where C1 came from (the rows' source).
instrument::Comparison model_comparison(const RunResult& r, const C1Curve& c1, const std::string& c1_from,
                                        const bspmodel::BspMachine& machine,
                                        const std::vector<bspmodel::BspMachine>& others);

void print_run_summary(std::ostream& out, const RunOptions& o, const RunResult& r);

}  // namespace mg
