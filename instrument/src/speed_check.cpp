// The run's speed check against itself and its calibrations (speed_check.hpp).
#include "instrument/speed_check.hpp"

#include <algorithm>
#include <cstdio>
#include <span>
#include <string>

#include "instrument/calibration_reader.hpp"
#include "instrument/comparison.hpp"
#include "instrument/rank_gather.hpp"
#include "instrument/statistics.hpp"

namespace instrument {

namespace {

// As the other marks end (uneven_cpus.cpp, machine_load.cpp): calibration_unreliable_because
// strips it where a calibration's line is repeated.
constexpr const char* kUnreliableTail = "the measured-vs-modelled comparison is unreliable";

bool beyond(double a, double b) {
  return a > 0 && b > 0 && std::max(a, b) > kSpeedCheckRatio * std::min(a, b);
}

}  // namespace

double SpeedCheck::run_ns() const {
  std::vector<double> mean;
  for (std::size_t p = 0; p < before_ns.size() && p < after_ns.size(); ++p)
    if (before_ns[p] > 0 && after_ns[p] > 0) mean.push_back(0.5 * (before_ns[p] + after_ns[p]));
  return mean.empty() ? 0.0 : median(mean);
}

SpeedCheck gather_speed_check(double before_ns, double after_ns, MPI_Comm comm) {
  const double mine[2] = {before_ns, after_ns};
  const auto all = gather_to_root(comm, std::span<const double>(mine, 2));
  SpeedCheck c;
  for (std::size_t k = 0; k + 1 < all.all.size(); k += 2) {
    c.before_ns.push_back(all.all[k]);
    c.after_ns.push_back(all.all[k + 1]);
  }
  return c;
}

std::string speed_changed_line(const SpeedCheck& check, const std::string& what) {
  std::size_t worst = check.before_ns.size();
  double ratio = kSpeedCheckRatio;
  for (std::size_t p = 0; p < check.before_ns.size() && p < check.after_ns.size(); ++p) {
    const double b = check.before_ns[p], a = check.after_ns[p];
    if (!beyond(a, b)) continue;
    const double r = std::max(a, b) / std::min(a, b);
    if (r > ratio) ratio = r, worst = p;
  }
  if (worst == check.before_ns.size()) return "";
  char figures[160];
  std::snprintf(figures, sizeof figures, " took %.1f ns before the measured work and %.1f ns after (%.2fx",
                check.before_ns[worst], check.after_ns[worst], ratio);
  return "speed: rank " + std::to_string(worst) + "'s CPU changed speed during the run: " + what + figures +
         "; the host's load on it moved); " + kUnreliableTail;
}

std::string speed_differs_line(double run_ns, double calibration_ns, const std::string& file, const std::string& what) {
  if (!beyond(run_ns, calibration_ns)) return "";
  char figures[160];
  std::snprintf(figures, sizeof figures, " %.2fx %s than when calibration ",
                std::max(run_ns, calibration_ns) / std::min(run_ns, calibration_ns),
                run_ns > calibration_ns ? "slower" : "faster");
  char ns[96];
  std::snprintf(ns, sizeof ns, " ran (%.1f against %.1f ns)", run_ns, calibration_ns);
  return "speed: this run's CPU took " + what + figures + file + ns +
         ": its constants came from a CPU at another speed (the host's load moved between the runs); " +
         kUnreliableTail;
}

void mark_if_speed_changed(Comparison& comparison, const SpeedCheck& check, const std::string& what) {
  const std::string line = speed_changed_line(check, what);
  if (!line.empty()) comparison.mark_unreliable(line);
}

void mark_if_speed_differs(Comparison& comparison, double run_ns, double calibration_ns, const std::string& file,
                           const std::string& what) {
  const std::string line = speed_differs_line(run_ns, calibration_ns, file, what);
  if (!line.empty()) comparison.mark_unreliable(line);
}

double calibration_speed_check_ns(const ResultsDocument& doc, const std::string& app, const std::string& app_group,
                                  const std::string& path) {
  if (!doc.extras.group_attributes.contains(app_group)) return 0.0;
  const CalibrationReader run(doc, {app, app_group, "results file"}, path);
  // 1e-3..1e9 ns: any check's unit of work on any CPU, under a sanitizer too.
  return run.real_or("speed_check_ns", 0.0, 1e-3, 1e9, "ns per unit of the run's speed check");
}

}  // namespace instrument
