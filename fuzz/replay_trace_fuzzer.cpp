// The replay reader (instrument::replay::program_from_trace, cost_table_from) on traces the
// input encodes as a script of a run (support/trace_script.hpp), and the replay engine
// (replay::simulate) on every program the reader accepts, as instrument-replay runs them:
// with --self, and with costs from a calibration (a second trace of the same input).
// Bad input must be an InputError from the reader or a ReplayError from the engine.
//
// A program the engine completes must also be consistent (checked, std::abort otherwise):
// per rank every total finite and >= 0, the end the sum of the categories (each operation
// starts where the previous one returned), one op counted per operation, total the latest
// end, events the operations; the timeline (when kept) one contiguous interval per
// operation; and the time-ordered reference loop (Options::time_ordered) gives the same
// outcome and, on success, exactly the same figures.
//
// REPLAY_TRACE_FUZZ_VERBOSE=1 prints each input's outcomes (for choosing seeds).
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/loggps.hpp"
#include "instrument/replay.hpp"
#include "instrument/replay_trace.hpp"
#include "trace_script.hpp"

namespace {

namespace replay = instrument::replay;

bool verbose = false;

void require(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "replay_trace: invariant broken: %s\n", what.c_str());
  std::abort();
}

// A small valid machine: L = 1 us, o' = 0.1 us, O_s = O_r = 0.1 ns/B, G_s = G_l = 1 ns/B,
// s = 64 B, S = 1024 B, g = 0.2 us (ctest/instrument/unit_replay_program.hpp's round machine).
replay::Machine machine() {
  replay::Machine m;
  m.net.L = 1e-6;
  m.net.o_prime = 1e-7;
  m.net.O_s = 1e-10;
  m.net.O_r = 1e-10;
  m.net.G_s = 1e-9;
  m.net.G_l = 1e-9;
  m.net.s = 64;
  m.net.S = 1024;
  m.g = 2e-7;
  m.g_from = "fuzz";
  return m;
}

struct Setting {
  std::string epoch_phase = replay::kDefaultEpochPhase;
  int ranks_per_node = 0;  // contention off
  bool keep_timeline = false;
};

void check_totals(const replay::Program& p, const replay::Result& res) {
  require(static_cast<int>(res.ranks.size()) == p.ranks(), "one RankTotals per rank");
  double latest = 0.0;
  std::int64_t ops = 0;
  for (int r = 0; r < p.ranks(); ++r) {
    const replay::RankTotals& t = res.ranks[static_cast<std::size_t>(r)];
    const std::string who = "rank " + std::to_string(r) + ": ";
    const double parts[] = {t.compute, t.send, t.receive, t.wait, t.collective, t.end};
    for (double x : parts) require(std::isfinite(x) && x >= 0.0, who + "every total finite and >= 0");
    require(t.ops == p.size(r), who + "ops == the program's operations");
    // Sums of rounded durations: equal to the end within a few ulps per operation.
    const double sum = t.compute + t.send + t.receive + t.wait + t.collective;
    const double slack = 4.0 * static_cast<double>(t.ops + 1) * std::numeric_limits<double>::epsilon() * t.end;
    for (double x : parts) require(x <= t.end + slack, who + "end >= each category");
    require(std::fabs(sum - t.end) <= slack, who + "end == the sum of the categories");
    latest = std::max(latest, t.end);
    ops += t.ops;
  }
  require(res.total == latest, "total == the latest end");
  require(res.events == ops, "events == the operations simulated");
}

void check_timeline(const replay::Program& p, const replay::Result& res) {
  const instrument::GatheredTrace& tl = res.timeline;
  require(static_cast<int>(tl.per_rank.size()) == p.ranks(), "a timeline per rank");
  for (int r = 0; r < p.ranks(); ++r) {
    const auto& ev = tl.per_rank[static_cast<std::size_t>(r)];
    const std::string who = "timeline of rank " + std::to_string(r) + ": ";
    require(static_cast<std::int64_t>(ev.size()) == p.size(r), who + "one interval per operation");
    double t = 0.0;
    for (const instrument::TraceEvent& e : ev) {
      require(e.t_begin == t && e.t_end >= e.t_begin, who + "contiguous intervals from 0");
      require(e.kind >= 0 && static_cast<std::size_t>(e.kind) < tl.kinds.size(), who + "kinds in range");
      t = e.t_end;
    }
    require(t == res.ranks[static_cast<std::size_t>(r)].end, who + "ends at the rank's end");
  }
}

std::string totals_text(const replay::RankTotals& t) {
  char b[256];
  std::snprintf(b, sizeof b, "compute %.17g send %.17g receive %.17g wait %.17g collective %.17g end %.17g ops %lld",
                t.compute, t.send, t.receive, t.wait, t.collective, t.end, static_cast<long long>(t.ops));
  return b;
}

void check_same(const replay::Result& a, const replay::Result& b) {
  require(a.ranks.size() == b.ranks.size() && a.events == b.events,
          "time order: the same ranks and events as causal order");
  for (std::size_t r = 0; r < a.ranks.size(); ++r) {
    const replay::RankTotals &x = a.ranks[r], &y = b.ranks[r];
    require(x.compute == y.compute && x.send == y.send && x.receive == y.receive && x.wait == y.wait &&
                x.collective == y.collective && x.end == y.end && x.ops == y.ops,
            "time order: rank " + std::to_string(r) + "'s totals as in causal order (causal: " + totals_text(x) +
                "; time order: " + totals_text(y) + ")");
  }
  require(a.total == b.total, "time order: the same total as causal order");
}

// Runs the program in causal and in time order; "" on success, else the ReplayError.
std::string simulate(const replay::Program& p, const Setting& s) {
  replay::Machine m = machine();
  m.ranks_per_node = s.ranks_per_node;
  m.node_bytes_per_second = s.ranks_per_node > 0 ? 1e9 : 0.0;
  replay::Options causal, timed;
  causal.keep_timeline = s.keep_timeline;
  timed.time_ordered = true;
  replay::Result a, b;
  std::string error_a, error_b;
  try {
    a = replay::simulate(p, m, causal);
  } catch (const replay::ReplayError& e) {
    error_a = e.what();
  }
  try {
    b = replay::simulate(p, m, timed);
  } catch (const replay::ReplayError& e) {
    error_b = e.what();
  }
  require(error_a.empty() == error_b.empty(), "time order: the same outcome as causal order (causal: " +
                                                  (error_a.empty() ? "ok" : error_a) + "; time order: " +
                                                  (error_b.empty() ? "ok" : error_b) + ")");
  if (!error_a.empty()) return error_a;
  check_totals(p, a);
  if (s.keep_timeline) check_timeline(p, a);
  check_same(a, b);
  return "";
}

void replay_and_check(const instrument::GatheredTrace& run, const replay::CostTable* costs, const Setting& s) {
  replay::TraceOptions to;
  to.epoch_phase = s.epoch_phase;
  to.costs = costs;
  std::string outcome;
  try {
    const replay::RecordedProgram rec = replay::program_from_trace(run, "run.h5", to);
    const replay::StoredProgram& p = rec.program;
    require(p.source_index.size() == p.per_rank.size(), "a source index per rank");
    for (std::size_t r = 0; r < p.per_rank.size(); ++r)
      require(p.source_index[r].size() == p.per_rank[r].size(), "a source index per operation");
    const std::string error = simulate(p, s);
    outcome = error.empty() ? "replayed" : "ReplayError: " + error;
  } catch (const instrument::InputError& e) {
    outcome = std::string("InputError: ") + e.what();
  }
  if (verbose) std::fprintf(stderr, "%s: %s\n", costs ? "costs" : "self", outcome.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  instrument::loggps::validate(machine().net, "the fuzz target's machine");  // throws if not
  const char* v = std::getenv("REPLAY_TRACE_FUZZ_VERBOSE");
  verbose = v && *v && *v != '0';
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  // The settings, then the input split in two: the replayed run and a calibration run.
  Setting s;
  const auto epoch = in.ConsumeIntegralInRange<int>(0, 7);
  s.epoch_phase = epoch == 6 ? "sweep" : epoch == 7 ? "no such phase" : replay::kDefaultEpochPhase;
  s.ranks_per_node = in.ConsumeBool() ? in.ConsumeIntegralInRange<int>(1, 4) : 0;
  s.keep_timeline = in.ConsumeBool();
  const auto run_bytes = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, in.remaining_bytes()));
  const auto calibration_bytes = in.ConsumeRemainingBytes<std::uint8_t>();

  FuzzedDataProvider run_in(run_bytes.data(), run_bytes.size());
  const instrument::GatheredTrace run = fuzz::TraceScript(run_in).build();
  replay_and_check(run, nullptr, s);  // --self

  FuzzedDataProvider calibration_in(calibration_bytes.data(), calibration_bytes.size());
  const instrument::GatheredTrace calibration = fuzz::TraceScript(calibration_in).build();
  replay::CostTable table;
  try {
    table = replay::cost_table_from(calibration, "calibration.h5", s.epoch_phase);
  } catch (const instrument::InputError& e) {
    if (verbose) std::fprintf(stderr, "cost table: InputError: %s\n", e.what());
    return 0;
  }
  replay_and_check(run, &table, s);  // --costs
  return 0;
}
