// The working-set term of a superstep's comm+sync (after_stream.hpp).
#include "bsplib/model/after_stream.hpp"

#include <algorithm>
#include <cmath>

#include "bsplib/model/after_gap.hpp"
#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/cost_series.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace bspmodel {

double after_stream_cost(const AfterStreamCosts& a, double n) {
  return mean_of_three_at(a.working_set_bytes, a.empty, a.one_way_64, a.one_way_2048, n);
}

double after_stream_extra(const AfterStreamCosts& a, double working_set_bytes) {
  if (a.none()) return 0;
  return std::max(0.0, after_stream_cost(a, working_set_bytes) - after_stream_cost(a, 0));
}

double cold_sync_extra(const BspMachine& m, double gap_seconds, double working_set_bytes) {
  return std::max(after_gap_extra(m.after_gap, gap_seconds), after_stream_extra(m.after_stream, working_set_bytes));
}

double comm_sync_eq3_cold(const BspMachine& m, const SuperstepSummary& step, double working_set_bytes) {
  return comm_sync_granular(m, step.h_bytes) + cold_sync_extra(m, gap_of_last_to_enter(step), working_set_bytes);
}

double comm_sync_by_pattern_cold(const BspMachine& m, const SuperstepSummary& step, double working_set_bytes) {
  return comm_sync_by_pattern(m.curves, pattern_of(step), step.h_bytes) +
         cold_sync_extra(m, gap_of_last_to_enter(step), working_set_bytes);
}

}  // namespace bspmodel
