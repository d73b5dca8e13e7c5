// The run's and the probes' cache-line round trips (core_round_trip.hpp).
#include "instrument/core_round_trip.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>

#include "instrument/comparison.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/statistics.hpp"
#include "line_pairs.hpp"

namespace instrument {

namespace {
// The app's sample (MPI_COMM_WORLD, at the start of its run).
std::optional<double>& start_sample() {
  static std::optional<double> sample;
  return sample;
}

[[noreturn]] void missed_store(const std::string& text) {
  std::fflush(stdout);
  std::fprintf(stderr, "error: the placement's cache-line round trip: %s\n", text.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // not reached: MPI_Abort ends the process
}

std::string nanoseconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f ns", s * 1e9);
  return text;
}
}  // namespace

double measure_core_round_trip(MPI_Comm comm, int blocks, int per_block) {
  LinePairs lines(comm, missed_store);
  return lines.measure(std::max(blocks, 1), std::max(per_block, 1));
}

void start_core_round_trip_sample() { start_sample() = measure_core_round_trip(MPI_COMM_WORLD); }

std::vector<double> CoreRoundTrips::samples() const {
  std::vector<double> s;
  for (double v : {start, end})
    if (v > 0) s.push_back(v);
  return s;
}

CoreRoundTrips end_core_round_trip_sample(MPI_Comm comm) {
  CoreRoundTrips rt;
  int same = MPI_UNEQUAL;
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &same);
  if (start_sample() && (same == MPI_IDENT || same == MPI_CONGRUENT)) rt.start = *start_sample();
  rt.end = measure_core_round_trip(comm);
  return rt;
}

double core_round_trip(const std::vector<double>& samples) { return samples.empty() ? 0.0 : median(samples); }

double placement_ratio(double probe_seconds, const std::vector<double>& run_seconds) {
  if (!(probe_seconds > 0) || run_seconds.empty()) return 0;
  double worst = 0;
  for (double rt : run_seconds) {
    if (!(rt > 0)) return 0;
    worst = std::max({worst, rt / probe_seconds, probe_seconds / rt});
  }
  return worst;
}

void write_loggp_core_round_trip(const std::vector<double>& samples, MachineFile& machine) {
  machine.erase_prefix(kLogGpRoundTripKey);
  machine.erase_prefix(kMovedKey);
  if (samples.empty() || std::any_of(samples.begin(), samples.end(), [](double s) { return !(s > 0 && s <= 1); }))
    return;
  std::string listed;
  for (double s : samples) listed += (listed.empty() ? "" : ", ") + nanoseconds(s);
  const double lo = *std::min_element(samples.begin(), samples.end());
  const double hi = *std::max_element(samples.begin(), samples.end());
  if (hi > kSamePlacementRatio * lo) {
    machine.comment("the processes' CPUs moved during the probe: no loggp.core_round_trip_seconds, the "
                    "parameters are of no one placement");
    machine.set(kMovedKey, listed);
    return;
  }
  machine.comment("the round trip of a cache line between the processes' CPUs before and after the probe (" + listed +
                  "): the placement its parameters are true of");
  machine.set(kLogGpRoundTripKey, core_round_trip(samples));
}

double probe_core_round_trip(const MachineFile& machine, const std::string& key) {
  const std::optional<double> s = machine.get_double(key);
  return s && *s > 0 && *s <= 1 ? *s : 0.0;
}

void mark_if_other_placement(Comparison& comparison, double probe_seconds, const std::vector<double>& run_seconds,
                             const std::string& machine) {
  const double ratio = placement_ratio(probe_seconds, run_seconds);
  if (!(ratio > kSamePlacementRatio)) return;
  std::string run;
  for (double s : run_seconds) run += (run.empty() ? "" : ", ") + nanoseconds(s);
  char r[32];
  std::snprintf(r, sizeof r, "%.2fx", ratio);
  const std::string line = "placement: this run's CPUs were not where its probe's were (cache-line round trip " +
                           run + " against " + nanoseconds(probe_seconds) + " in " + machine + ", " + r +
                           "): the measured-vs-modelled comparison is unreliable";
  comparison.mark_unreliable(line);
}

void mark_if_other_placement(Comparison& comparison, const std::string& machine_path, const std::string& key,
                             const CoreRoundTrips& run, int run_ranks) {
  if (machine_path.empty() || run.samples().empty()) return;
  if (key == kLogGpRoundTripKey && run_ranks != 2) return;  // the probe's pair is not the run's
  double probe = 0;
  try {
    probe = probe_core_round_trip(MachineFile::read(machine_path), key);
  } catch (const std::exception&) {
    return;
  }
  mark_if_other_placement(comparison, probe, run.samples(), machine_path);
}

}  // namespace instrument
