// What a tycho run prints after its iterations: the solution's checks (balance, digest), the
// measured times (set-up apart, the sweep per iteration, T_elem and the grind time per
// cell-angle-group) and the run's step statistics (steps, PCE of eq. 4).
#pragma once
#include <iosfwd>
#include <optional>

#include "tycho/driver.hpp"
#include "tycho/model/pce.hpp"

namespace tycho {

// Rank 0, after run_tycho.
void print_run_summary(std::ostream& out, const RunOptions& options, const RunResult& result);

// The median over iterations of the sweep's time (max over ranks), the first iteration left
// out when there are more than two (it pays for first touches).
double median_sweep_seconds(const TransportResult& transport);

// T_elem as the run measured it: every rank's time in the cell solves / every rank's tasks
// (each all groups), over the scored iterations (first_scored_iteration: the sweeps the
// measured column is the median of), seconds per cell-angle task; 0 with no task. Rank 0 (needs the gathered
// compute times).
double measured_t_elem(const RunResult& result);

// Of measured_t_elem, the part in the tasks' inflow gathers and cell solves
// (SweepEngine::gather_solve_seconds), over the same iterations and tasks; the rest chose the
// batches, released the downwind tasks, packed outflow and reset the ready queue. Rank 0 (needs the gathered times).
double measured_t_gather_solve(const RunResult& result);

// The last sweep's steps and PCE (eq. 4), as the summary prints them; none with no histories
// (not rank 0) or no iteration. Rank 0.
std::optional<model::PceOfIteration> last_sweep_pce(const RunResult& result);

// PCE (eq. 4) over the scored iterations (first_scored_iteration: the sweeps whose times the
// measured columns are), as one: their W_p summed over their sums of each step's fullest rank
// (the compute a GM charges, W_p T_elem / PCE, then adds up to theirs). `steps` is the mean of
// their step counts, rounded; `iteration` the last. None as for last_sweep_pce. Rank 0.
std::optional<model::PceOfIteration> scored_sweeps_pce(const RunResult& result);

// ranks x median sweep time / (cells x directions x groups), ns per cell-angle-group.
double grind_ns(const RunResult& result);

}  // namespace tycho
