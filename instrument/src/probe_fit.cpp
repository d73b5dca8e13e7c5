// The search for S of loggps-probe, and what the fits share; the fits themselves are in
// probe_fit_loggps.cpp and probe_fit_loggp.cpp.
#include "instrument/probe_fit.hpp"

#include <algorithm>
#include <cmath>

namespace instrument::probe {

double max_rel_error(const std::vector<RttSample>& data, const std::function<double(std::int64_t)>& model) {
  double worst = 0.0;
  for (const RttSample& d : data) worst = std::max(worst, std::fabs(relative_error(model(d.bytes), d.seconds)));
  return worst;
}

// ---------------------------------------------------------------------------- S
ThresholdSearch find_synchronous_threshold(const std::vector<std::int64_t>& sizes,
                                           const std::function<bool(std::int64_t)>& waits) {
  ThresholdSearch r;
  auto probe = [&](std::int64_t k) {
    const bool w = waits(k);
    r.tried.push_back(k);
    r.waited.push_back(w);
    return w;
  };
  std::size_t first = sizes.size();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const bool w = probe(sizes[i]);
    if (w && first == sizes.size()) first = i;
    if (!w && first != sizes.size()) r.monotone = false;
  }
  if (first == sizes.size()) {
    r.S = sizes.empty() ? 0 : sizes.back();
    r.first_waiting = -1;
    return r;
  }
  std::int64_t lo = first == 0 ? 0 : sizes[first - 1];  // did not wait (0 B: nothing to wait for)
  std::int64_t hi = sizes[first];                       // waited
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (probe(mid)) hi = mid;
    else lo = mid;
  }
  r.S = lo;
  r.first_waiting = hi;
  return r;
}

}  // namespace instrument::probe
