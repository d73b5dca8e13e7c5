// Whether the run's CPUs computed at one speed: a rank whose time per unit of work (a cell-angle
// task, a cell) is far above another's over the same interval ran on a CPU the host gave to
// someone else for part of it, which no model with one cost per unit describes.
//
// Why: on the 2-vCPU AMD EPYC (Zen 5) Firecracker guest, 2026-12-03, three of six tycho runs
// at 2 ranks in two `main` campaigns had one rank's time per task 1.18-1.31x the other's in
// every iteration, and one had it 1.40-1.74x in three of its five iterations (223 against 128
// ns) while the machine read idle (/proc/stat, /proc/pressure/cpu) and the CPUs' placement was
// the probe's: that run measured 0.087 s a sweep against 0.057-0.059 s in the other two
// repetitions, and the models were off by -26..-40% on it alone. The guest shows no steal.
// Beyond kUnevenCpuRatio the comparison is marked unreliable, as a busy run's is.
#pragma once
#include <string>
#include <vector>

namespace instrument {

class Comparison;

inline constexpr double kUnevenCpuRatio = 1.5;

// One interval (an iteration, a cycle) and each rank's seconds per unit of work over it (0: the
// rank did no work there, left out).
struct RankRates {
  std::string interval;            // "iteration 2"
  std::vector<double> seconds_per_unit;  // by rank
};

// The largest ratio of the slowest rank's rate to the fastest's over the intervals (1 when
// fewer than two ranks worked in any), and where it was.
struct UnevenCpus {
  double ratio = 1.0;
  std::string interval;
  int slow_rank = -1, fast_rank = -1;
  double slow = 0.0, fast = 0.0;  // seconds per unit
};
UnevenCpus uneven_cpus(const std::vector<RankRates>& intervals);

// Marks the comparison unreliable (after any other line) when uneven_cpus' ratio is beyond
// kUnevenCpuRatio; `unit` names the work ("cell-angle task").
void mark_if_uneven_cpus(Comparison& comparison, const std::vector<RankRates>& intervals, const std::string& unit);

}  // namespace instrument
