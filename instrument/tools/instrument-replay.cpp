// instrument-replay: replays a recorded run (a results file made with --trace) under the
// LogGOPS simulator (instrument/replay.hpp) and sets the replayed times beside the measured.
//
//   instrument-replay RUN.h5 (--self | --costs CALIB.h5) [--machine FILE]
//                     [--trace-out FILE.json] [--ranks-per-node N --node-bandwidth B/s]
//                     [--epoch PHASE]
//
// Compute costs come from --costs (an earlier, calibration run's seconds per work unit:
// replay_trace.hpp) or, with --self, from the run's own gaps between its MPI calls (the
// consistency check of the simulator). One of the two must be said: the replayed run's own
// timings are never used unasked. The machine is --machine FILE, else the machine file the
// run recorded (/machine). Prints per rank and in total the measured and replayed compute,
// send, receive, wait, collective and end times with the error, and ends with exactly one
// line `replay T_total measured <s> replayed <s> error <pct>%`; just above it, when the run was
// recorded on a busy machine (its root attribute machine_load), the line saying so and that
// the comparison is unreliable (machine_load.hpp). No MPI: run it directly.
//
// Bad input: one line `instrument-replay: error: FILE:PLACE: what was expected`, exit 1; so
// is a figure that would print as inf or nan (never printed: the reader bounds times and rates,
// this is the second line of defence).
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_table.hpp"
#include "instrument/replay.hpp"
#include "instrument/replay_trace.hpp"
#include "instrument/results_file.hpp"
#include "instrument/run_app.hpp"
#include "instrument/trace_export.hpp"

using namespace instrument;

namespace {

struct Options {
  std::string run, machine, costs, trace_out, epoch = replay::kDefaultEpochPhase;
  bool self = false;
  std::int64_t ranks_per_node = 0;
  double node_bandwidth = 0.0;
};

// The command line, bound to `o`; the checks between options run after it is read.
void declare_options(OptionTable& t, Options& o) {
  t.positional_file("RUN.h5", o.run, Arity::required, "a results file made with --trace, to replay")
      .flag("--self", o.self, "compute costs from the run's own gaps between its MPI calls (a consistency check)")
      .input_file("--costs", "CALIB.h5", o.costs,
                  "compute costs from an earlier calibration run's seconds per work unit")
      .input_file("--machine", "FILE", o.machine, "machine file (LogGPS parameters)")
      .shown_default("the machine file the run recorded")
      .output_file("--trace-out", "FILE.json", o.trace_out, "write the replayed timeline as a Chrome trace")
      .whole("--ranks-per-node", "N", o.ranks_per_node, 1, std::int64_t{1} << 20, "ranks",
             "contention model: ranks sharing a node's link (with --node-bandwidth)")
      .shown_default("no contention")
      .real("--node-bandwidth", "B/s", o.node_bandwidth, 1.0, 1e15, "bytes/s",
            "contention model: a node's link bandwidth (with --ranks-per-node)")
      .shown_default("")
      .text("--epoch", "PHASE",
            [&o](const std::string& n, const std::string& v) {
              // "" would name no phase: the whole trace replayed, unasked.
              if (v.empty()) throw InputError("command line", n, "expected a phase name (e.g. iteration), got \"\"");
              o.epoch = v;
            },
            "the phase whose first start begins the replayed span")
      .shown_default(o.epoch)
      .after_reading([&t, &o] {
        if (o.self == !o.costs.empty())
          throw InputError("command line", o.self ? "--self" : "",
                           "exactly one source of compute costs: --self (the run's own gaps, a consistency check) or "
                           "--costs CALIB.h5 (an earlier calibration run)");
        if (t.given("--ranks-per-node") != t.given("--node-bandwidth"))
          throw InputError("command line", t.given("--ranks-per-node") ? "--ranks-per-node" : "--node-bandwidth",
                           "--ranks-per-node and --node-bandwidth together (the contention model needs both)");
      });
}

// The calibration is never the replayed run (its costs would be the run's own timings, a
// --self under another name): the same file by any spelling, symbolic or hard link, is
// refused. Both paths were checked to be regular files, so stat succeeds but for a race, in
// which case the reader names the missing file.
void require_other_file(const std::string& costs, const std::string& run) {
  struct stat c {}, r {};
  if (::stat(costs.c_str(), &c) != 0 || ::stat(run.c_str(), &r) != 0) return;
  if (c.st_dev == r.st_dev && c.st_ino == r.st_ino)
    throw InputError("command line", "--costs",
                     "expected an earlier calibration run, not the replayed one (" + costs + " is the same file as " +
                         run + "; --self replays with the run's own gaps)");
}

// The machine file the run recorded, rebuilt from /machine.
MachineFile recorded_machine(const MachineRecord& m, const std::string& run) {
  if (m.parameters.empty())
    throw InputError(run, "/machine",
                     "machine parameters recorded by the run (it was made without --machine); give --machine FILE");
  std::string text = std::string("format = ") + MachineFile::kFormat + "\n";
  for (const auto& [key, value] : m.parameters) {
    if (key == "format") continue;
    text += key + " = ";
    if (const auto* d = std::get_if<double>(&value)) text += format_number(*d);
    else if (const auto* i = std::get_if<std::int64_t>(&value)) text += std::to_string(*i);
    else text += std::get<std::string>(value);
    text += "\n";
  }
  return MachineFile::parse(text, run + ":/machine (recorded from " + m.source_file + ")");
}

// The error of a replayed figure in percent; nullopt when the measured one is 0 (no error).
std::optional<double> error_percent(double measured, double replayed) {
  if (!(measured > 0.0)) return std::nullopt;
  return 100.0 * (replayed - measured) / measured;
}

std::string error_text(double measured, double replayed) {
  const auto e = error_percent(measured, replayed);
  if (!e) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%+.2f%%", *e);
  return b;
}

void row(const std::string& who, const char* what, double measured, double replayed) {
  std::printf("%5s  %-10s  %12.6g  %12.6g  %9s\n", who.c_str(), what, measured, replayed,
              error_text(measured, replayed).c_str());
}

void rows(const std::string& who, const replay::RankTotals& m, const replay::RankTotals& r, const char* end_name) {
  row(who, "compute", m.compute, r.compute);
  row(who, "send", m.send, r.send);
  row(who, "receive", m.receive, r.receive);
  row(who, "wait", m.wait, r.wait);
  row(who, "collective", m.collective, r.collective);
  row(who, end_name, m.end, r.end);
}

// InputError naming the first figure to be printed that is not finite (inf or nan).
void require_finite(const replay::RecordedProgram& rec, const replay::Result& res, const replay::RankTotals& msum,
                    const replay::RankTotals& rsum, const std::string& run) {
  auto check = [&](const std::string& who, const replay::RankTotals& m, const replay::RankTotals& r) {
    const std::pair<const char*, std::pair<double, double>> figures[] = {
        {"compute", {m.compute, r.compute}}, {"send", {m.send, r.send}},
        {"receive", {m.receive, r.receive}}, {"wait", {m.wait, r.wait}},
        {"collective", {m.collective, r.collective}}, {"end", {m.end, r.end}}};
    for (const auto& [what, mr] : figures) {
      const auto error = error_percent(mr.first, mr.second);
      for (const auto& [side, x] : {std::pair{"measured", mr.first}, std::pair{"replayed", mr.second},
                                    std::pair{"error (%) of the", error.value_or(0.0)}})
        if (!std::isfinite(x))
          throw InputError(run, "/trace",
                           "finite measured and replayed times; the " + std::string(side) + " " + what + " of " + who +
                               " is " + format_number(x) + " (times or costs far outside a real run's)");
    }
  };
  for (int r = 0; r < rec.program.ranks(); ++r)
    check("rank " + std::to_string(r), rec.measured[static_cast<std::size_t>(r)], res.ranks[static_cast<std::size_t>(r)]);
  check("all ranks", msum, rsum);
  for (const auto& [what, x] : {std::pair{"the start skew", rec.start_skew},
                                std::pair{"the uncovered compute", rec.uncovered_measured_seconds}})
    if (!std::isfinite(x))
      throw InputError(run, "/trace", std::string("finite measured times; ") + what + " is " + format_number(x));
}

int run(const Options& o) {
  // Refused before any work: a trace path that cannot be written (a symbolic link, a device);
  // a results file that cannot be opened (a symbolic-link loop named in one line).
  if (!o.trace_out.empty()) check_output_file(o.trace_out, "trace");
  require_regular_input(o.run, "results file");
  if (!o.costs.empty()) {
    require_regular_input(o.costs, "results file");
    require_other_file(o.costs, o.run);
  }
  const ResultsDocument doc = read_results(o.run);
  replay::CostTable table;
  replay::TraceOptions to;
  to.epoch_phase = o.epoch;
  if (!o.costs.empty()) {
    const ResultsDocument cal = read_results(o.costs);
    table = replay::cost_table_from(cal.run.trace, o.costs, o.epoch);
    to.costs = &table;
  }
  const replay::RecordedProgram rec = replay::program_from_trace(doc.run.trace, o.run, to);

  const MachineFile machine_file = o.machine.empty() ? recorded_machine(doc.machine, o.run) : MachineFile::read(o.machine);
  replay::Machine machine = replay::machine_from(machine_file);
  machine.ranks_per_node = static_cast<int>(o.ranks_per_node);
  machine.node_bytes_per_second = o.node_bandwidth;

  replay::Options so;
  so.keep_timeline = !o.trace_out.empty();
  replay::Result res;
  try {
    res = replay::simulate(rec.program, machine, so);
  } catch (const replay::ReplayError& e) {
    throw InputError(o.run, "/trace/rank_" + std::to_string(e.rank()), std::string("a replayable trace: ") + e.what());
  }

  replay::RankTotals msum, rsum;
  auto add = [](replay::RankTotals& sum, const replay::RankTotals& x) {
    sum.compute += x.compute;
    sum.send += x.send;
    sum.receive += x.receive;
    sum.wait += x.wait;
    sum.collective += x.collective;
  };
  for (int r = 0; r < rec.program.ranks(); ++r) {
    add(msum, rec.measured[static_cast<std::size_t>(r)]);
    add(rsum, res.ranks[static_cast<std::size_t>(r)]);
  }
  msum.end = rec.measured_total;
  rsum.end = res.total;
  // The reader bounds times, work and rates (replay_trace.hpp), so this holds; checked again
  // because a figure printed as inf or nan would pass for a result.
  require_finite(rec, res, msum, rsum, o.run);

  // Written before anything is printed: a failed write is the one error line.
  if (!o.trace_out.empty()) write_chrome_trace_file(o.trace_out, res.timeline);

  std::printf("replay of %s: %s, %d ranks, %s\n", o.run.c_str(), doc.run.info.app.c_str(), rec.program.ranks(),
              rec.span.c_str());
  std::printf("compute: %s\n", rec.compute_from.c_str());
  if (rec.uncovered_pieces > 0) {
    std::string labels;
    for (const auto& l : rec.uncovered_labels) labels += (labels.empty() ? "" : ", ") + l;
    std::printf("compute not in the calibration, replayed as 0 s: %lld pieces, %.6g s measured (%s)\n",
                static_cast<long long>(rec.uncovered_pieces), rec.uncovered_measured_seconds, labels.c_str());
  }
  std::printf("machine: %s; g: %s; contention: %s\n", machine_file.name().c_str(), machine.g_from.c_str(),
              machine.ranks_per_node > 0
                  ? (std::to_string(machine.ranks_per_node) + " ranks per node, " +
                     format_number(machine.node_bytes_per_second) + " B/s per node")
                        .c_str()
                  : "off");
  std::printf("start: the ranks enter the span at their measured offsets (largest %.6g s)\n", rec.start_skew);
  std::printf("%5s  %-10s  %12s  %12s  %9s\n", "rank", "seconds", "measured", "replayed", "error");
  for (int r = 0; r < rec.program.ranks(); ++r)
    rows(std::to_string(r), rec.measured[static_cast<std::size_t>(r)], res.ranks[static_cast<std::size_t>(r)], "end");
  rows("all", msum, rsum, "T_total");
  std::printf("simulated %lld operations in %.3g s\n", static_cast<long long>(res.events), res.wall_seconds);
  if (!o.trace_out.empty()) std::printf("replayed timeline: %s (Chrome trace JSON)\n", o.trace_out.c_str());
  // The run's measured times were taken on a loaded machine: the error below is not the model's.
  if (doc.run.machine_load.busy()) std::printf("%s\n", doc.run.machine_load.busy_line().c_str());
  std::printf("replay T_total measured %.9g replayed %.9g error %s\n", rec.measured_total, res.total,
              error_text(rec.measured_total, res.total).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  OptionTable table("instrument-replay");
  declare_options(table, o);
  return run_serial_app(argc, argv, table, [&] { return run(o); });
}
