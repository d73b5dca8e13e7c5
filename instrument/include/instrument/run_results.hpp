// RunResults: everything one run measured, gathered from all ranks onto rank 0, with the
// run's metadata. This is what the results file stores and the report prints.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "instrument/core_round_trip.hpp"
#include "instrument/machine_load.hpp"
#include "instrument/recorder.hpp"
#include "instrument/statistics.hpp"

namespace instrument {

// min / mean / median / max over ranks of one quantity (statistics.hpp's Summary).
using RankStats = Summary;
RankStats rank_stats(const std::vector<double>& per_rank);

struct GatheredPhase {
  std::string name;
  std::vector<double> inclusive;  // [nranks] seconds; 0 where a rank never entered it
  std::vector<double> exclusive;  // [nranks] seconds
  std::vector<std::int64_t> calls;  // [nranks]
};

struct GatheredCounter {
  std::string name;
  std::vector<std::int64_t> values;  // [nranks]
};

struct GatheredTrace {
  std::vector<std::string> kinds;  // phase names, indexed by TraceEvent::kind
  std::vector<std::vector<TraceEvent>> per_rank;
  std::vector<std::int64_t> dropped;  // [nranks]

  // The phase name of an event; std::out_of_range when its kind is not in `kinds`.
  const std::string& phase_name(const TraceEvent& e) const;
  // The kind of a phase name, -1 when no event kind has that name.
  std::int32_t kind_of(std::string_view phase) const;
};

// Metadata of the run (the root attributes of the results file).
struct RunInfo {
  std::string app, version, git_describe, date, host, mpi_library;
  int nranks = 1;
  int threads = 1;
  std::map<std::string, std::string> inputs;  // every input parameter as given
  std::string input_text;                     // the deck text, verbatim
  std::string input_file;
  int pinned_cpu = -1;  // the CPU a one-rank run was pinned to (cpu_pinning.hpp), -1 = none
};

// Fills version, git describe, date (UTC, ISO 8601), host, MPI library, ranks, threads and
// the pinned CPU.
RunInfo make_run_info(const std::string& app, MPI_Comm comm);

// The clock the hooks used and how its ticks became seconds (root attributes clock_* of the
// results file; clock.hpp and clock_offsets.hpp describe the method).
struct ClockInfo {
  std::string source;  // "tsc", "steady_clock", "none" (hooks compiled out); "" = not recorded
  double frequency_hz = 0.0;      // ticks per second over the whole run, rank 0
  double read_ns = 0.0;           // one read of the tick clock, rank 0, at calibration
  double disagreement_ppm = 0.0;  // largest over ranks of (start - whole-run rate) / rate
  double tolerance_ppm = 0.0;     // accepted beyond the calibration pairs' own uncertainty
  std::string check;              // "passed", or "failed on rank r: ..." (times then use the
                                  // whole-run rate, steady_clock's measure of the run)
  std::string sync;               // how the ranks' trace times were put on one time base
  std::vector<double> offset;     // [nranks] s: subtracted from each rank's trace times
  std::vector<double> offset_uncertainty;  // [nranks] s: half the kept round trip, 0 if none
};

struct RunResults {
  RunInfo info;
  ClockInfo clock;
  MachineLoad machine_load;  // during the run (machine_load.hpp), measured by gather_results
  CoreRoundTrips core_round_trip;  // the CPUs' placement at start and end (core_round_trip.hpp)
  std::vector<GatheredPhase> phases;
  std::vector<GatheredCounter> counters;
  GatheredTrace trace;  // empty unless the recorders traced

  const GatheredPhase* find_phase(const std::string& name) const;
  const GatheredCounter* find_counter(const std::string& name) const;
};

// Collective over comm. First the machine's load since run_app started the program is
// measured (machine_load.hpp; "unknown" in a program run_app did not start), and the CPUs'
// placement sampled (core_round_trip.hpp). Phase and
// counter names may differ between ranks (a rank that never
// sends has no "send"): the result holds the union, in first-seen order by rank. Valid on
// `root` only; other ranks get an empty RunResults.
// Ticks become seconds with each rank's whole-run clock rate (final_conversion(), whose end
// check is reported in `clock`, with a warning on stderr when it fails); trace times are put
// on rank 0's time base, with offsets measured when ranks run on other hosts than rank 0
// (or on every rank when SUITE_CLOCK_OFFSETS=always).
// A run whose phases were mis-nested on any rank (Recorder::nesting_error(), or a phase still
// open) has no results: every rank throws std::logic_error naming the lowest such rank and
// its first mismatch, so no results file or table can be made from it.
RunResults gather_results(const Recorder& recorder, const RunInfo& info, MPI_Comm comm,
                          int root = 0);

}  // namespace instrument
