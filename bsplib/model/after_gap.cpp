// The gap term of a superstep's comm+sync (after_gap.hpp).
#include "bsplib/model/after_gap.hpp"

#include <algorithm>
#include <cmath>

#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/cost_series.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace bspmodel {

double after_gap_cost(const AfterGapCosts& a, double x) {
  return mean_of_three_at(a.gap_seconds, a.empty, a.one_way_64, a.one_way_2048, x);
}

double after_gap_extra(const AfterGapCosts& a, double gap_seconds) {
  if (a.none()) return 0;
  return std::max(0.0, after_gap_cost(a, gap_seconds) - after_gap_cost(a, 0));
}

double gap_of_last_to_enter(const SuperstepSummary& step) {
  if (step.per_process.empty()) return step.w_max;
  const ProcessStep* last = &step.per_process[0];
  for (const ProcessStep& ps : step.per_process)
    if (ps.t_exit - ps.t_enter < last->t_exit - last->t_enter) last = &ps;
  return last->t_enter - last->t_begin;
}

double comm_sync_eq3_after_gap(const BspMachine& m, const SuperstepSummary& step) {
  return comm_sync_granular(m, step.h_bytes) + after_gap_extra(m.after_gap, gap_of_last_to_enter(step));
}

double comm_sync_by_pattern_after_gap(const BspMachine& m, const SuperstepSummary& step) {
  return comm_sync_by_pattern(m.curves, pattern_of(step), step.h_bytes) +
         after_gap_extra(m.after_gap, gap_of_last_to_enter(step));
}

}  // namespace bspmodel
