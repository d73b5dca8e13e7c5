// What a run prints and compares: the grids, the phases, and the two predictions of the
// measured W-cycle beside it (eq. 5 and the profiler's replay), as instrument::Comparison
// rows with the source of every constant.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "instrument/comparison.hpp"
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
