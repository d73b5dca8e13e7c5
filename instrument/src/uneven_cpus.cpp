// The ranks' speeds compared (uneven_cpus.hpp).
#include "instrument/uneven_cpus.hpp"

#include <cstdio>

#include "instrument/comparison.hpp"

namespace instrument {

UnevenCpus uneven_cpus(const std::vector<RankRates>& intervals) {
  UnevenCpus worst;
  for (const RankRates& in : intervals) {
    int slow = -1, fast = -1;
    for (std::size_t r = 0; r < in.seconds_per_unit.size(); ++r) {
      const double v = in.seconds_per_unit[r];
      if (!(v > 0)) continue;
      if (slow < 0 || v > in.seconds_per_unit[static_cast<std::size_t>(slow)]) slow = static_cast<int>(r);
      if (fast < 0 || v < in.seconds_per_unit[static_cast<std::size_t>(fast)]) fast = static_cast<int>(r);
    }
    if (slow < 0 || slow == fast) continue;
    const double s = in.seconds_per_unit[static_cast<std::size_t>(slow)];
    const double f = in.seconds_per_unit[static_cast<std::size_t>(fast)];
    if (s / f > worst.ratio) worst = {s / f, in.interval, slow, fast, s, f};
  }
  return worst;
}

void mark_if_uneven_cpus(Comparison& comparison, const std::vector<RankRates>& intervals, const std::string& unit) {
  const UnevenCpus u = uneven_cpus(intervals);
  if (!(u.ratio > kUnevenCpuRatio)) return;
  char text[512];
  std::snprintf(text, sizeof text,
                "cpus: rank %d took %.2fx rank %d's time per %s in %s (%.0f ns against %.0f ns): its CPU ran slower "
                "(the host's load on it); the measured-vs-modelled comparison is unreliable",
                u.slow_rank, u.ratio, u.fast_rank, unit.c_str(), u.interval.c_str(), u.slow * 1e9, u.fast * 1e9);
  const std::string line = text;
  comparison.mark_unreliable(line);
}

}  // namespace instrument
