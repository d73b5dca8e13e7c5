#include "bsplib/model/superstep_model.hpp"

#include <algorithm>

namespace bspmodel {

StepPattern pattern_of(const SuperstepSummary& step) {
  if (step.gets_max > 0) return StepPattern::gets;
  for (const ProcessStep& ps : step.per_process)
    if (ps.bytes_in > 0 && ps.bytes_out > 0) return StepPattern::exchange;
  return step.h_bytes > 0 ? StepPattern::one_way : StepPattern::none;
}

const char* pattern_name(StepPattern pattern) {
  switch (pattern) {
    case StepPattern::none: return "none";
    case StepPattern::one_way: return "one-way";
    case StepPattern::exchange: return "exchange";
    case StepPattern::gets: return "gets";
  }
  return "?";
}

double interpolate_curve(const std::vector<double>& h, const std::vector<double>& t, double x) {
  const std::size_t n = h.size();
  if (n == 1 || x <= h[0]) return t[0];
  // The segment that holds x, or the last one beyond the last point.
  const std::size_t i = std::min<std::size_t>(
      static_cast<std::size_t>(std::upper_bound(h.begin(), h.end(), x) - h.begin()), n - 1);
  const double slope = (t[i] - t[i - 1]) / (h[i] - h[i - 1]);
  if (x > h[n - 1]) return t[n - 1] + std::max(slope, 0.0) * (x - h[n - 1]);
  return t[i - 1] + slope * (x - h[i - 1]);
}

double comm_sync_by_pattern(const SuperstepCurves& curves, StepPattern pattern, double h_bytes) {
  switch (pattern) {
    case StepPattern::none: return curves.empty_seconds;
    case StepPattern::one_way: return interpolate_curve(curves.h_bytes, curves.one_way, h_bytes);
    case StepPattern::exchange: return interpolate_curve(curves.h_bytes, curves.exchange, h_bytes);
    case StepPattern::gets: return interpolate_curve(curves.h_bytes, curves.gets, h_bytes);
  }
  return curves.empty_seconds;
}

}  // namespace bspmodel
