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
//
// Why 1.25: on the same guest, 2026-12-06, the largest ratio of an interval in 14 tycho runs
// at 2 ranks made while the vCPUs ran alike (one-rank runs pinned to each: 130-148 ns a task
// on both) was 1.16 (a first iteration), most 1.01-1.09; multigrid's 1.08-1.10 in the two runs
// of that state; sweep3d's 1.01-1.19 in 14 runs of either state. While one vCPU ran a pinned
// one-rank tycho 1.39-1.52x slower than the other (139 against 193-211 ns, holding for
// minutes, memory-bound code only: sweep3d's kernel stayed at 1.04-1.19), tycho's 2-rank runs
// read 1.08-1.51 and multigrid's 1.08-1.46; three `main` repetitions whose tycho models read
// -21..-37% had 1.47-1.49 and were not marked at the old 1.5.
#pragma once
#include <string>
#include <vector>

namespace instrument {

class Comparison;

inline constexpr double kUnevenCpuRatio = 1.25;

// One interval (an iteration, a cycle, or a span of them) and each rank's seconds per unit of
// work over it (0: the rank did no work there, left out).
struct RankRates {
  std::string interval;            // "iteration 2", "iterations 3-5"
  std::vector<double> seconds_per_unit;  // by rank
};

// One interval's work by rank (an iteration, a cycle): the seconds and the units of work
// each rank spent and did in it (0 units: the rank did no work there).
struct RankWork {
  int number = 0;  // the interval's number in the run ("iteration 3")
  std::vector<double> seconds, units;  // by rank
};

// Below this much work a rank's rate says little: a timer interrupt, a page fault or the
// scheduler's tick costs tens to hundreds of microseconds once, and on sweep3d's small deck,
// whose iterations take a few microseconds of kernel a rank, single iterations of idle runs
// read 1.6-5.5x between the ranks (12 runs, AMD EPYC Zen 5, 2026-12-05).
inline constexpr double kUnevenCpuMinSeconds = 0.01;

// Consecutive intervals joined until every rank that worked in the last of them has spent at
// least min_seconds in the span, each span's rates its seconds over its units ("iteration 3",
// or "iterations 3-5" when joined, with `name` "iteration"); a rank with less than
// min_seconds in a span (it stopped working) gets 0 there, left out. A last span short of
// min_seconds is joined to the one before; a run short of it in all gives no span (too short
// to tell).
std::vector<RankRates> rates_over_spans(const std::vector<RankWork>& intervals, const std::string& name,
                                        double min_seconds = kUnevenCpuMinSeconds);

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
