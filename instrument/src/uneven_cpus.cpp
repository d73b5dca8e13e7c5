// The ranks' speeds compared (uneven_cpus.hpp).
#include "instrument/uneven_cpus.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "instrument/comparison.hpp"

namespace instrument {

namespace {

// Each span [first, last] of intervals, as rates_over_spans joins them.
std::vector<std::pair<std::size_t, std::size_t>> spans_of(const std::vector<RankWork>& intervals, double min_seconds) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t first = 0;
  std::vector<double> seconds, units;
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const RankWork& in = intervals[i];
    seconds.resize(std::max(seconds.size(), in.seconds.size()), 0.0);
    units.resize(std::max(units.size(), in.units.size()), 0.0);
    for (std::size_t r = 0; r < in.seconds.size(); ++r) seconds[r] += in.seconds[r];
    for (std::size_t r = 0; r < in.units.size(); ++r) units[r] += in.units[r];
    // The ranks that worked in this interval decide: one that stopped working (a full trace,
    // few cells) does not hold the span open; its short share is left out below.
    bool enough = false;
    for (std::size_t r = 0; r < in.units.size(); ++r)
      if (in.units[r] > 0) {
        enough = r < seconds.size() && seconds[r] >= min_seconds;
        if (!enough) break;
      }
    if (!enough) continue;
    spans.emplace_back(first, i);
    first = i + 1;
    seconds.assign(seconds.size(), 0.0);
    units.assign(units.size(), 0.0);
  }
  if (first < intervals.size() && !spans.empty()) spans.back().second = intervals.size() - 1;
  return spans;
}

}  // namespace

std::vector<RankRates> rates_over_spans(const std::vector<RankWork>& intervals, const std::string& name,
                                        double min_seconds) {
  std::vector<RankRates> rates;
  for (const auto& [first, last] : spans_of(intervals, min_seconds)) {
    RankRates span;
    span.interval = first == last ? name + " " + std::to_string(intervals[first].number)
                                  : name + "s " + std::to_string(intervals[first].number) + "-" +
                                        std::to_string(intervals[last].number);
    std::vector<double> seconds, units;
    for (std::size_t i = first; i <= last; ++i) {
      const RankWork& in = intervals[i];
      seconds.resize(std::max(seconds.size(), in.seconds.size()), 0.0);
      units.resize(std::max(units.size(), in.units.size()), 0.0);
      for (std::size_t r = 0; r < in.seconds.size(); ++r) seconds[r] += in.seconds[r];
      for (std::size_t r = 0; r < in.units.size(); ++r) units[r] += in.units[r];
    }
    span.seconds_per_unit.assign(units.size(), 0.0);
    for (std::size_t r = 0; r < units.size(); ++r)
      if (units[r] > 0 && r < seconds.size() && seconds[r] >= min_seconds) span.seconds_per_unit[r] = seconds[r] / units[r];
    rates.push_back(std::move(span));
  }
  return rates;
}

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
  // Three figures for a few ns a unit (sweep3d's cell-angle), whole ns from 100 (tycho's task).
  const auto ns = [](double seconds) {
    char s[32];
    std::snprintf(s, sizeof s, seconds * 1e9 >= 100 ? "%.0f" : "%.3g", seconds * 1e9);
    return std::string(s);
  };
  char text[512];
  std::snprintf(text, sizeof text,
                "cpus: rank %d took %.2fx rank %d's time per %s in %s (%s ns against %s ns): its CPU ran slower "
                "(the host's load on it); the measured-vs-modelled comparison is unreliable",
                u.slow_rank, u.ratio, u.fast_rank, unit.c_str(), u.interval.c_str(), ns(u.slow).c_str(), ns(u.fast).c_str());
  const std::string line = text;
  comparison.mark_unreliable(line);
}

}  // namespace instrument
