// The summary of bspprobe's cache-line round trips (core_round_trip.hpp).
#include "bsplib/model/core_round_trip.hpp"

#include <algorithm>

#include "instrument/statistics.hpp"

namespace bspmodel {

double core_round_trip(const std::vector<double>& samples) {
  return samples.empty() ? 0.0 : instrument::median(samples);
}

double placement_ratio(double probe_seconds, const std::vector<double>& run_seconds) {
  if (!(probe_seconds > 0) || run_seconds.empty()) return 0;
  double worst = 0;
  for (double rt : run_seconds) {
    if (!(rt > 0)) return 0;
    worst = std::max({worst, rt / probe_seconds, probe_seconds / rt});
  }
  return worst;
}

}  // namespace bspmodel
