// The gap term of a superstep's comm+sync (after_gap.hpp).
#include "bsplib/model/after_gap.hpp"

#include <algorithm>
#include <cmath>

#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace bspmodel {

double mean_of_three_at(const std::vector<double>& points, const std::vector<double>& a,
                        const std::vector<double>& b, const std::vector<double>& c, double x) {
  const auto mean_at = [&](std::size_t i) { return (a[i] + b[i] + c[i]) / 3; };
  const std::size_t n = points.size();
  if (n == 1 || x <= 0) return mean_at(0);
  if (x >= points[n - 1]) return mean_at(n - 1);
  std::size_t i = 1;
  while (points[i] < x) ++i;  // points[i - 1] < x <= points[i]
  const double lo = points[i - 1], hi = points[i];
  const double f = i == 1 ? x / hi : std::log(x / lo) / std::log(hi / lo);
  return mean_at(i - 1) + f * (mean_at(i) - mean_at(i - 1));
}

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
