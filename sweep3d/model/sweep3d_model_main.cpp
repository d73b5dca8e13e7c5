// sweep3d-model: evaluates the LogGP and pipeline models of Sweep3D without running it, for
// any problem size, process grid (up to hundreds of thousands of processes), blocking and
// machine file; prints (and optionally plots) predicted time against processes, and finds
// the blocking (mk, mmi) with the least predicted time.
//
//   sweep3d-model --machine loggps.machine --wg 5e-9 --grid 50x50x50 --mm 6
//                 --procs 1,4,16,64,256 --mk 10 --mmi 3 [--iterations 12] [--csv F] [--plot F.png]
//   sweep3d-model ... --per-rank 6x6x1000 --procs 1,...   (weak scaling: grid grows with P)
//   sweep3d-model ... --npe 2x2 --mk auto --mmi auto       (best blocking for one grid)
//   sweep3d-model ... --replay [--replay-trace F.json]     (also replay the generated KBA program)
//
// W_g depends on mmi (the kernel vectorises over a block's angles), so it is given per mmi:
// --wg S (for the one --mmi given), --wg 1:S1,3:S3,6:S6, or --calibration RUN.h5[,RUN.h5...]
// (sweep3d results files, one per mmi; they also give W_before and W_after). --mmi auto
// searches only the mmi values that have a W_g, and says which it skipped.
//
// --replay also simulates one source iteration of the generated KBA program (kba_program.hpp)
// with the replay engine (instrument/replay.hpp) on the machine file's LogGPS parameters
// (the analytic models take its LogGP ones), compute = W_g x cell-angles per block and the
// calibrated W_before/W_after per cell, and prints the replayed time beside the models. The
// iteration ends in two allreduces that every rank leaves at once, so N iterations replay in
// N times one.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iostream>
#include <sstream>
#include <optional>
#include <string>
#include <vector>

#include "instrument/calibration_reader.hpp"
#include "instrument/error.hpp"
#include "instrument/collective_model.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/replay.hpp"
#include "instrument/replay_memory.hpp"
#include "instrument/run_app.hpp"
#include "instrument/trace_export.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_table.hpp"
#include "instrument/output_file.hpp"
#include "instrument/text_split.hpp"
#include "sweep3d/model/blocking_search.hpp"
#include "sweep3d/model/calibration.hpp"
#include "sweep3d/model/iteration_model.hpp"
#include "sweep3d/model/kba_program.hpp"
#include "sweep3d/model/loggp_machine_costs.hpp"
#include "sweep3d/model/loggp_sweep_model.hpp"
#include "sweep3d/model/model_ranges.hpp"
#include "sweep3d/model/pipeline_model.hpp"

// The suite's figures: `suite-campaign plot sweep3d-model-scaling CSV PLOT` draws --plot.
#ifndef SWEEP3D_MODEL_SUITE_CAMPAIGN
#define SWEEP3D_MODEL_SUITE_CAMPAIGN "tools/suite-campaign"
#endif

extern char** environ;

using namespace sweep3d::model;
using instrument::InputError;
using instrument::split;

namespace {

struct Options {
  std::string machine;
  std::string wg_spec;                   // --wg as given
  std::vector<std::string> calibration;  // --calibration files
  double w_before = 0.0, w_after = 0.0;  // --w-before/--w-after, seconds per iteration (with --wg)
  int gx = 0, gy = 0, gz = 0;  // global grid
  int rx = 0, ry = 0, rz = 0;  // per-rank grid (weak scaling)
  int mm = 6;
  std::string mk = "10", mmi = "3";
  int fixed_mk = 0, fixed_mmi = 0;  // 0: auto
  std::vector<std::pair<int, int>> npes;
  int iterations = 1;
  SendMode mode = SendMode::blocking;
  std::string csv, plot;
  bool replay = false, nonblocking = false;
  std::string replay_trace;  // Chrome trace JSON of the replayed iteration (one grid)
  std::vector<int> procs;    // --procs, laid out into npes by check_options
};

const char* kSynopsis =
    "sweep3d-model --machine FILE (--wg S | --wg MMI:S[,MMI:S...] | --calibration RUN.h5[,RUN.h5...])\n"
    "         (--grid IxJxK | --per-rank IxJxK) (--procs P1,P2,... | --npe IxJ[,IxJ...])\n"
    "         [--mm 3|6] [--mk N|auto] [--mmi N|auto] [--nonblocking] [--iterations N]\n"
    "         [--w-before S] [--w-after S] [--csv FILE] [--plot FILE.png]\n"
    "         [--replay [--replay-trace FILE.json]]";
const char* kNotes =
    "  W_g (seconds per cell-angle) depends on mmi: give it per mmi, or calibration runs\n"
    "  (sweep3d results files) at each mmi; --mmi auto searches the mmi values that have one.";

// Every number of the command line has a range (model_ranges.hpp), named when refused.
const std::string kExtentRange = "in [1, 16777216]";

// Decimal digits only, refused before they could overflow.
long long parse_integer(const std::string& opt, const std::string& text, long long lo, long long hi,
                        const std::string& range) {
  bool ok = !text.empty() && text.size() <= 18;
  for (char c : text) ok = ok && c >= '0' && c <= '9';
  const long long v = ok ? std::stoll(text) : 0;
  if (!ok || v < lo || v > hi)
    throw InputError("command line", opt, "an integer " + range + ", got " + instrument::quote_token(text));
  return v;
}

// A decimal number (no hex, no inf, no nan) in [lo, hi].
double parse_seconds(const std::string& opt, const std::string& text, double lo, double hi, const std::string& range) {
  bool ok = !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string::npos;
  char* end = nullptr;
  const double v = ok ? std::strtod(text.c_str(), &end) : 0.0;
  if (!ok || *end != '\0' || !(v >= lo && v <= hi))
    throw InputError("command line", opt, "a number of seconds " + range + ", got " + instrument::quote_token(text));
  return v;
}

const std::string kWgRange = "in [1e-12, 1e-3] (W_g, per cell-angle)";

double parse_wg(const std::string& text) { return parse_seconds("--wg", text, kMinWg, kMaxWg, kWgRange); }

void parse_triple(const std::string& opt, const std::string& text, int& a, int& b, int& c) {
  const auto parts = split(text, "x");
  if (parts.size() != 3)
    throw InputError("command line", opt, "IxJxK, e.g. 50x50x50, got " + instrument::quote_token(text));
  a = static_cast<int>(parse_integer(opt, parts[0], 1, kMaxExtent, kExtentRange + " (cells per axis)"));
  b = static_cast<int>(parse_integer(opt, parts[1], 1, kMaxExtent, kExtentRange + " (cells per axis)"));
  c = static_cast<int>(parse_integer(opt, parts[2], 1, kMaxExtent, kExtentRange + " (cells per axis)"));
}

int blocking_value(const std::string& opt, const std::string& text, long long limit) {
  return static_cast<int>(parse_integer(opt, text, 1, limit, "in [1, " + std::to_string(limit) + "] or auto"));
}

// The rules between options, once all are read.
void check_options(Options& o) {
  if (o.nonblocking) o.mode = SendMode::nonblocking;
  if (o.machine.empty()) throw InputError("command line", "--machine", "a machine file from loggps-probe");
  if (o.wg_spec.empty() == o.calibration.empty())
    throw InputError("command line", "--wg/--calibration", "exactly one of them: W_g per mmi, or calibration runs");
  if ((o.gx > 0) == (o.rx > 0)) throw InputError("command line", "--grid/--per-rank", "exactly one of them");
  for (int p : o.procs) {  // squarest grid with npe_i <= npe_j, as KBA runs are laid out
    int i = static_cast<int>(std::sqrt(static_cast<double>(p)));
    while (p % i) --i;
    o.npes.emplace_back(i, p / i);
  }
  if (o.npes.empty()) throw InputError("command line", "--procs/--npe", "at least one process grid");
  if (!o.replay_trace.empty() && (!o.replay || o.npes.size() != 1))
    throw InputError("command line", "--replay-trace", "--replay and exactly one process grid");
  if (o.mk != "auto") o.fixed_mk = blocking_value("--mk", o.mk, kMaxExtent);
  if (o.mmi != "auto") o.fixed_mmi = blocking_value("--mmi", o.mmi, o.mm);
  if (o.fixed_mmi > 0 && o.mm % o.fixed_mmi)
    throw InputError("command line", "--mmi", "a factor of mm = " + std::to_string(o.mm) + ", got " + std::to_string(o.fixed_mmi));
  if (o.rx > 0)  // weak scaling: the global grid grows with the process grid
    for (const auto& [ni, nj] : o.npes)
      if (static_cast<long long>(o.rx) * ni > kMaxExtent || static_cast<long long>(o.ry) * nj > kMaxExtent)
        throw InputError("command line", "--per-rank",
                         "a global grid of at most 16777216 cells per axis; " + std::to_string(o.rx) + "x" +
                             std::to_string(o.ry) + " per rank on " + std::to_string(ni) + "x" + std::to_string(nj) +
                             " processes is more");
}

// The command line, bound to `o`; the numbers are read by the readers above, which name
// each range. The checks between options are check_options'.
void declare_options(instrument::OptionTable& t, Options& o) {
  const auto seconds = [](double& target) {
    return [&target](const std::string& n, const std::string& v) {
      target = parse_seconds(n, v, 0.0, kMaxIterationWork, "in [0, 1e4] (per iteration)");
    };
  };
  t.notes(kNotes)
      .input_file("--machine", "FILE", o.machine, "machine file from loggps-probe (its LogGP parameters)")
      .text("--wg", "S|MMI:S[,MMI:S...]", [&o](const std::string&, const std::string& v) { o.wg_spec = v; },
            "W_g, seconds per cell-angle: for the one --mmi given, or per mmi; in [1e-12, 1e-3]")
      .file_list("--calibration", "RUN.h5[,RUN.h5...]", o.calibration,
                 "sweep3d results files, one per mmi: W_g, W_before and W_after")
      .text("--w-before", "S", seconds(o.w_before), "seconds per iteration before the sweeps (with --wg); in [0, 1e4]")
      .text("--w-after", "S", seconds(o.w_after), "seconds per iteration after the sweeps (with --wg); in [0, 1e4]")
      .text("--grid", "IxJxK", [&o](const std::string& n, const std::string& v) { parse_triple(n, v, o.gx, o.gy, o.gz); },
            "the global grid (strong scaling); each in [1, 16777216]")
      .text("--per-rank", "IxJxK",
            [&o](const std::string& n, const std::string& v) { parse_triple(n, v, o.rx, o.ry, o.rz); },
            "the grid of a rank (weak scaling: the global grid grows with P); each in [1, 16777216]")
      .text("--mm", "3|6",
            [&o](const std::string& n, const std::string& v) {
              if (v != "3" && v != "6") throw InputError("command line", n, "3 (S4) or 6 (S6), got " + instrument::quote_token(v));
              o.mm = v == "3" ? 3 : 6;
            },
            "angles per octant: 3 (S4) or 6 (S6) (default: 6)")
      .text("--mk", "N|auto", [&o](const std::string&, const std::string& v) { o.mk = v; },
            "k-planes per block, in [1, 16777216], or auto: the least predicted time (default: 10)")
      .text("--mmi", "N|auto", [&o](const std::string&, const std::string& v) { o.mmi = v; },
            "angles per block, a factor of mm, or auto: the least predicted time (default: 3)")
      .flag("--nonblocking", o.nonblocking, "non-blocking sends (LogGP's non-blocking variant)")
      .text("--iterations", "N",
            [&o](const std::string& n, const std::string& v) {
              o.iterations = static_cast<int>(parse_integer(n, v, 1, kMaxIterations, "in [1, 100000]"));
            },
            "source iterations predicted; in [1, 100000] (default: 1)")
      .text("--procs", "P1,P2,...",
            [&o](const std::string& n, const std::string& v) {
              for (const auto& p : split(v, ","))
                o.procs.push_back(static_cast<int>(parse_integer(n, p, 1, kMaxExtent, kExtentRange + " (processes)")));
            },
            "process counts, each laid out as the squarest grid with npe_i <= npe_j; each in [1, 16777216]")
      .text("--npe", "IxJ[,IxJ...]",
            [&o](const std::string& n, const std::string& v) {
              for (const auto& g : split(v, ",")) {
                const auto ij = split(g, "x");
                if (ij.size() != 2) throw InputError("command line", n, "IxJ, e.g. 2x2, got " + instrument::quote_token(g));
                const long long ni = parse_integer(n, ij[0], 1, kMaxExtent, kExtentRange + " (processes in I)");
                const long long nj = parse_integer(n, ij[1], 1, kMaxExtent, kExtentRange + " (processes in J)");
                if (ni * nj > kMaxExtent)
                  throw InputError("command line", n, "at most 16777216 processes, got " + instrument::quote_token(g));
                o.npes.emplace_back(static_cast<int>(ni), static_cast<int>(nj));
              }
            },
            "process grids; at most 16777216 processes each")
      .output_file("--csv", "FILE", o.csv, "write the table as CSV")
      .output_file("--plot", "FILE.png", o.plot, "plot time against processes (and write FILE.png.csv)")
      .flag("--replay", o.replay, "also replay the generated KBA program with the replay engine")
      .output_file("--replay-trace", "FILE.json", o.replay_trace,
                   "the replayed iteration as a Chrome trace (with --replay and one process grid)")
      .after_reading([&o] { check_options(o); });
}


// W_g per mmi from --wg ("S" applies to the one fixed --mmi; "MMI:S,...") or the calibrations.
WgByMmi wg_table(const Options& o, const CalibrationSet& cal) {
  WgByMmi wg;
  if (!o.calibration.empty()) {
    // One calibration per mmi (the first given), the same entry as W_before and W_after.
    for (const auto& c : cal.entries())
      if (cal.find_mmi(c.mmi) == &c) wg[c.mmi] = c.wg_s;
    return wg;
  }
  if (o.wg_spec.find(':') == std::string::npos) {
    if (o.mmi == "auto")
      throw InputError("command line", "--wg",
                       "W_g per mmi (e.g. --wg 1:1.1e-8,2:2.7e-9,3:1.9e-9,6:1e-9) or --calibration runs: "
                       "--mmi auto compares mmi values, and W_g depends on mmi");
    wg[blocking_value("--mmi", o.mmi, o.mm)] = parse_wg(o.wg_spec);
    return wg;
  }
  for (const auto& item : split(o.wg_spec, ",")) {
    const auto kv = split(item, ":");
    if (kv.size() != 2) throw InputError("command line", "--wg", "MMI:SECONDS pairs, got " + instrument::quote_token(item));
    const int mmi = static_cast<int>(parse_integer("--wg", kv[0], 1, 6, "1, 2, 3 or 6 (mmi of MMI:SECONDS)"));
    if (mmi == 4 || mmi == 5)
      throw InputError("command line", "--wg", "mmi 1, 2, 3 or 6 (a factor of mm), got " + instrument::quote_token(kv[0]));
    wg[mmi] = parse_wg(kv[1]);
  }
  return wg;
}

// Inputs inside their ranges give finite, non-negative times; a machine file whose costs
// are not (the LogGP checks are the machine file reader's) is refused here rather than
// printed as nan, inf or a negative time.
void require_valid_times(const std::string& machine, std::initializer_list<double> times) {
  for (double t : times)
    if (!(t >= 0.0) || !std::isfinite(t))
      throw InputError(machine, "", "LogGP parameters that give finite, non-negative times (this one models " +
                                        std::to_string(t) + " s)");
}

// What the plotting script said: a line of its stderr, printable and bounded.
std::string last_line_of(const std::string& text) {
  std::size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const std::size_t begin = text.find_last_of('\n', end);
  std::string line = text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
  for (char& c : line)
    if (static_cast<unsigned char>(c) < ' ' || c == 0x7f) c = '?';
  return line.size() > 400 ? line.substr(0, 400) + "..." : line;
}

// python3 suite-campaign plot sweep3d-model-scaling CSV PLOT, without a shell (the paths are
// passed as they are). Its stderr is captured, so that a failure is one line: ours, ending
// with the script's last line. Throws InputError(plot, "", "cannot write the plot: <why>").
void run_plot_script(const std::string& csv, const std::string& plot) {
  const std::string script = SWEEP3D_MODEL_SUITE_CAMPAIGN;
  const std::string fail = "cannot write the plot: ";
  std::vector<char*> args = {const_cast<char*>("/usr/bin/python3"), const_cast<char*>(script.c_str()),
                             const_cast<char*>("plot"), const_cast<char*>("sweep3d-model-scaling"),
                             const_cast<char*>(csv.c_str()), const_cast<char*>(plot.c_str()), nullptr};
  std::fflush(stdout);
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw InputError(plot, "", fail + "no pipe for the plotting script");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);  // dup2 clears CLOEXEC
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  std::string said;  // the last 64 KiB the script wrote to stderr
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
    if (n > 0) {
      said.append(buf, static_cast<std::size_t>(n));
      if (said.size() > 65536) said.erase(0, said.size() - 65536);
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(pipe_fds[0]);
  if (spawned != 0) throw InputError(plot, "", fail + "cannot run /usr/bin/python3: " + std::strerror(spawned));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw InputError(plot, "", fail + "lost the plotting script: " + std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  const std::string line = last_line_of(said);
  std::string how = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                        : "exit status " + std::to_string(WEXITSTATUS(status));
  throw InputError(plot, "", fail + (line.empty() ? script + " failed (" + how + ")" : line));
}

// One source iteration of the generated KBA program, replayed.
struct ReplayedIteration {
  instrument::replay::Result result;
  int last_rank = 0;  // the rank that ends last
};

ReplayedIteration replay_iteration(const KbaShape& s, const KbaCosts& costs, SendMode mode,
                                   const instrument::replay::Machine& machine, bool keep_timeline) {
  const KbaProgram program(s, costs, mode);
  instrument::replay::Options options;
  options.keep_timeline = keep_timeline;
  ReplayedIteration r{instrument::replay::simulate(program, machine, options), 0};
  for (std::size_t i = 0; i < r.result.ranks.size(); ++i)
    if (r.result.ranks[i].end > r.result.ranks[static_cast<std::size_t>(r.last_rank)].end) r.last_rank = static_cast<int>(i);
  return r;
}

// The analytic models' message costs from the replay's LogGPS parameters (Send = MPI_Send's
// cost with its receiver on time, eq. 4-5: T1 when eager, the handshake and (extension 2) the
// transfer too above S; Receive = T3; Total_Comm = eq. 1-3), so the CSV can show the models
// on the replay's parameters: what differs then is the models' structure, not two parameter
// sets.
MachineCosts machine_costs_from_loggps(const instrument::loggps::LogGpsParams& p) {
  namespace lg = instrument::loggps;
  MachineCosts m;
  m.latency = p.L;
  m.message = [p](std::int64_t k) {
    return MessageCosts{lg::mpi_send_cost(p, k), lg::T3(p, k), lg::communication_cost(p, k), lg::is_synchronous(p, k),
                        lg::mpi_isend_cost(p)};
  };
  m.allreduce = [p](int n, std::int64_t k) { return instrument::allreduce_seconds(n, lg::communication_cost(p, k)); };
  return m;
}

// The replays' operations, summed over the process grids, at most 2^35: about 20 minutes at
// the 2.4-3.5e7 operations a second the engine simulates a KBA program here (one core,
// 2026-12-01, 1024 to 65536 processes). More is hours (--procs 16777216 --per-rank 5x5x400:
// 5.4e10 operations, and 45 GiB); a projection that far is the analytic models' job.
constexpr std::uint64_t kMostReplayOperations = std::uint64_t{1} << 35;

// A replay is refused before any work when the engine would need more memory than there is
// (replay_memory.hpp, from KbaProgram::counts) or would run for hours: --procs 16777216 once
// reached 7 GiB in 45 s, still growing.
void check_replay_size(const std::vector<KbaShape>& shapes, SendMode mode, const instrument::replay::Machine& machine,
                       bool keep_timeline) {
  instrument::replay::Options options;
  options.keep_timeline = keep_timeline;
  std::uint64_t operations = 0;
  for (const KbaShape& s : shapes) {
    const instrument::replay::ProgramCounts counts = KbaProgram(s, KbaCosts{}, mode).counts();
    const std::string grid = std::to_string(s.npe_i) + "x" + std::to_string(s.npe_j);
    instrument::require_node_memory(instrument::replay::peak_bytes(counts, machine, options), 1, "command line",
                                    "--replay",
                                    "the replay of " + grid + " processes (" + std::to_string(counts.operations) +
                                        " operations" + (keep_timeline ? ", each kept for --replay-trace" : "") + ")");
    operations += counts.operations;
  }
  if (operations > kMostReplayOperations)
    throw InputError("command line", "--replay",
                     "at most 2^35 operations to replay (about 20 minutes at the engine's 3e7 a second), got " +
                         std::to_string(operations) + " for the process grids given; fewer processes, or a larger --mk");
}

double percent_above(double model, double reference) { return 100.0 * (model - reference) / reference; }

int project(const Options& o) {
  const MachineCosts machine = read_machine_costs(o.machine);
  const CalibrationSet cal = read_calibrations(o.calibration);
  const WgByMmi wg = wg_table(o, cal);
  instrument::replay::Machine replay_machine;
  if (o.replay) replay_machine = instrument::replay::machine_from(instrument::MachineFile::read(o.machine));
  if (!o.replay_trace.empty()) instrument::OutputFile refused_before_printing(o.replay_trace, "the replay's trace");
  if (!o.plot.empty()) instrument::check_output_file(o.plot, "the plot");

  // Every process grid's shape and blocking before anything is printed, so that a replay
  // too big to run is refused first.
  std::vector<KbaShape> shapes;
  std::vector<BlockingSearch> searches;
  for (const auto& [ni, nj] : o.npes) {
    KbaShape s;
    s.npe_i = ni;
    s.npe_j = nj;
    s.it_g = o.gx > 0 ? o.gx : o.rx * ni;
    s.jt_g = o.gy > 0 ? o.gy : o.ry * nj;
    s.kt = o.gz > 0 ? o.gz : o.rz;
    s.mm = o.mm;
    searches.push_back(search_blockings(s, wg, machine, o.mode, o.fixed_mk, o.fixed_mmi));
    if (searches.back().best().mk == 0)
      throw InputError("command line", "--wg/--calibration",
                       "a W_g for mmi = " + std::to_string(o.fixed_mmi) + " (W_g depends on mmi)");
    s.mk = searches.back().best().mk;
    s.mmi = searches.back().best().mmi;
    shapes.push_back(s);
  }
  if (o.replay) check_replay_size(shapes, o.mode, replay_machine, !o.replay_trace.empty());

  // The CSV is written whole at the end, through the suite's one writer (no partial file).
  const std::string csv_path = !o.csv.empty() ? o.csv : !o.plot.empty() ? o.plot + ".csv" : "";
  if (!csv_path.empty()) instrument::OutputFile refused_before_printing(csv_path, "the model's CSV");
  std::ostringstream csv;
  csv << "processes,npe_i,npe_j,it,jt,kt,mk,mmi,loggp_seconds,loggp_computation,"
         "loggp_communication,loggp_synchronization,pipeline_seconds"
      << (o.replay ? ",replay_seconds,replay_compute,replay_send,replay_receive,replay_wait,replay_collective,"
                     "replay_events,replay_wall_seconds,loggp_on_loggps_seconds,loggp_on_loggps_synchronization,"
                     "pipeline_on_loggps_seconds"
                   : "")
      << '\n';
  std::printf("Sweep3D models: machine %s, %d iteration(s), %s sends; W_g per mmi:", o.machine.c_str(),
              o.iterations, o.mode == SendMode::blocking ? "blocking" : "non-blocking");
  for (const auto& [mmi, w] : wg) std::printf(" %d: %.4g s", mmi, w);
  std::printf(" (%s)\n", o.calibration.empty() ? "--wg" : "calibrated");
  for (const WorkCalibration& c : cal.entries())
    if (!c.unreliable_because.empty())
      std::printf("%s\n", instrument::calibration_unreliable_line(c.file, c.unreliable_because, "projection").c_str());
  if (o.replay)
    std::printf("replay: the generated KBA program, one iteration simulated x %d; LogGOPS from %s (g = %.4g s "
                "from %s), compute W_g x cell-angles per block; models: LogGP from the same file; "
                "differences (model - replay) / replay\n",
                o.iterations, o.machine.c_str(), replay_machine.g, replay_machine.g_from.c_str());
  std::printf("%9s %11s %13s %5s %4s %13s %11s %11s %11s %13s", "procs", "npe", "cells/rank",
              "mk", "mmi", "LogGP [s]", "comp", "comm", "sync", "pipeline [s]");
  if (o.replay) std::printf(" %13s %8s %8s %10s %10s", "replay [s]", "LogGP", "pipe", "events/s", "wall [s]");
  std::printf("\n");
  bool said_skipped = false;
  for (std::size_t g = 0; g < o.npes.size(); ++g) {
    const auto [ni, nj] = o.npes[g];
    const KbaShape& s = shapes[g];
    const BlockingSearch& search = searches[g];
    if (s.it_g < ni || s.jt_g < nj)
      std::fprintf(stderr, "sweep3d-model: note: %dx%d grid has ranks with no cells\n", ni, nj);
    if (!search.mmis_without_wg.empty() && !said_skipped) {
      std::printf("(--mmi auto: no W_g for mmi =");
      for (int m : search.mmis_without_wg) std::printf(" %d", m);
      std::printf(", not searched)\n");
      said_skipped = true;
    }
    const double w_g = wg.at(s.mmi);
    const auto lg = predict_loggp(s, w_g, machine, o.mode);
    const auto pl = predict_pipeline(s, w_g, machine);
    IterationWork work;
    if (const WorkCalibration* c = cal.find_mmi(s.mmi)) work = iteration_work(s, *c, machine);
    else work = {o.w_before, o.w_after, machine.allreduce ? 2.0 * machine.allreduce(ni * nj, 8) : 0.0};
    const double n = o.iterations;
    const double loggp_total = n * (lg.sweeps.total() + work.total());
    const double pipeline_total = n * (pl.total() + work.total());
    require_valid_times(o.machine, {loggp_total, pipeline_total, lg.sweeps.computation, lg.sweeps.communication,
                                    lg.sweeps.synchronization});
    char npe[32], cells[48];
    std::snprintf(npe, sizeof npe, "%dx%d", ni, nj);
    std::snprintf(cells, sizeof cells, "%dx%dx%d", s.it_of(0), s.jt_of(0), s.kt);
    std::printf("%9d %11s %13s %5d %4d %13.6g %11.4g %11.4g %11.4g %13.6g", ni * nj, npe, cells, s.mk, s.mmi,
                loggp_total, n * lg.sweeps.computation, n * lg.sweeps.communication, n * lg.sweeps.synchronization,
                pipeline_total);
    csv << ni * nj << ',' << ni << ',' << nj << ',' << s.it_of(0) << ',' << s.jt_of(0) << ',' << s.kt << ','
          << s.mk << ',' << s.mmi << ',' << loggp_total << ',' << n * lg.sweeps.computation << ','
          << n * lg.sweeps.communication << ',' << n * lg.sweeps.synchronization << ',' << pipeline_total;
    if (o.replay) {
      KbaCosts costs{w_g, 0.0, 0.0, o.w_before, o.w_after};
      if (const WorkCalibration* c = cal.find_mmi(s.mmi))
        costs = {w_g, c->w_before_s_per_cell, c->w_after_s_per_cell, 0.0, 0.0};
      const ReplayedIteration r = replay_iteration(s, costs, o.mode, replay_machine, !o.replay_trace.empty());
      const auto& last = r.result.ranks[static_cast<std::size_t>(r.last_rank)];
      const double replay_total = n * r.result.total;
      const double rate = r.result.wall_seconds > 0 ? static_cast<double>(r.result.events) / r.result.wall_seconds : 0;
      require_valid_times(o.machine, {replay_total});
      std::printf(" %13.6g %+7.1f%% %+7.1f%% %10.3g %10.3g", replay_total, percent_above(loggp_total, replay_total),
                  percent_above(pipeline_total, replay_total), rate, r.result.wall_seconds);
      csv << ',' << replay_total << ',' << n * last.compute << ',' << n * last.send << ',' << n * last.receive << ','
          << n * last.wait << ',' << n * last.collective << ',' << r.result.events << ',' << r.result.wall_seconds;
      // The same models on the replay's parameters (the CSV only: the table keeps the file's LogGP).
      const MachineCosts same = machine_costs_from_loggps(replay_machine.net);
      const auto lg2 = predict_loggp(s, w_g, same, o.mode);
      IterationWork work2 = work;
      work2.reductions = 2.0 * same.allreduce(ni * nj, 8);
      csv << ',' << n * (lg2.sweeps.total() + work2.total()) << ',' << n * lg2.sweeps.synchronization << ','
          << n * (predict_pipeline(s, w_g, same).total() + work2.total());
      if (!o.replay_trace.empty()) instrument::write_chrome_trace_file(o.replay_trace, r.result.timeline);
    }
    std::printf("\n");
    csv << '\n';
  }
  if (!csv_path.empty()) instrument::write_text_output(csv_path, "the model's CSV", csv.str());
  if (!o.replay_trace.empty()) std::printf("replay trace: %s (Chrome trace JSON, one iteration)\n", o.replay_trace.c_str());
  if (!o.plot.empty()) {
    run_plot_script(csv_path, o.plot);
    std::printf("plot: %s\n", o.plot.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("sweep3d-model", kSynopsis);
  declare_options(table, o);
  return instrument::run_serial_app(argc, argv, table, [&] { return project(o); });
}
