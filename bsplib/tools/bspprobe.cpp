// bspprobe: the BSP machine parameters of this machine on p processes (Hill, Crumpton &
// Burgess section 3, Table 1), written as a machine file for the profiler's predictor and
// the multigrid model.
//  s  : flop rate of an in-cache DAXPY, median over repetitions, slowest process.
//  l,g: least-squares fit T(h) = l + g h, in seconds, over h-relations of h bytes (8-byte
//       word puts spread cyclically over the other processes). T is what the profiler
//       measures as a superstep's comm+sync, so that model and measurement cover the same
//       interval: the time inside bsp_sync of the last process to enter it (the smallest
//       time in bsp_sync over processes); the put calls before it are the superstep's local
//       work w, in the probe as in a profiled program. The median over repetitions, each a
//       block of 4 supersteps of one h back to back (the first not timed). Fitting
//       in seconds keeps the noise of s out of l and g (bspbench fits in flop units); flops
//       are derived.
//  g(x), N_1/2: time per byte (after T(0)) of a fixed h made of messages of x bytes, (a) as separate MPI
//       messages (no combining: the 'single word messages' curve of Figure 1, whole
//       exchange timed) and (b) as scattered bsp_put records (combined into one message per
//       destination; bsp_sync timed as for T); fit t(x) = g_inf + g_inf N_1/2 / x (eq. 3).
//       The machine file takes (b), with g_inf the g of T(h) above: one g, which N_1/2 is
//       fitted against and applied with.
//  h_0: 100 N_1/2 / y (eq. 4) for accuracy y %.
//  round trip: of one cache line between the processes' CPUs (pairs s, s + p/2), before every
//       repetition of T(h), the curves, the gaps and the working sets (core_round_trip.hpp: on a virtual machine
//       the host's placement of the CPUs sets what a small superstep costs, and it moves between
//       launches); their median is the placement written, and repetitions taken at another
//       (over 1.5x off) are left out of those figures' medians.
//  after gap: the empty superstep and one put of 64 B and 2 KiB one way after 0, 10 us, 100 us,
//       1 ms and 10 ms of spinning on the clock (after_gap.hpp: the cost a program pays when
//       its syncs follow computation, which the back-to-back loops above do not see).
// Usage: mpiexec -n P bspprobe [--out FILE] [--reps R=31] [--hmax BYTES=262144]
//        [--accuracy Y=10] [--name NAME]
// FILE may be a machine file loggps-probe wrote: the bsp.* keys are added to it, the rest kept.
// Without --out: this host's file in the per-user cache, where the apps look for it
// (instrument/machine_cache.hpp: bsp-pP-HOST-MPI.machine); bsp-machine-pP.machine in the
// working directory when there is no cache directory (HOME and XDG_CACHE_HOME unset).
// The timed loops are in bsp_probe_measure.cpp, the fits in bsp_probe_fit.cpp (unit-tested).
// Options are checked on every process before measuring (ranges in declare_options); a bad one,
// memory the buffers would not get, or an output that cannot be written ends every process
// with one line (instrument::run_mpi_main's collective error).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bsp.h"
#include "bsplib/model/bsp_probe_fit.hpp"
#include "bsplib/model/bsp_probe_measure.hpp"
#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/first_use.hpp"
#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/strict_number.hpp"
#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_cache.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"

using namespace bspmodel;

namespace {

// The h of the first-use supersteps (measure_first_use): 2 KiB a pair.
constexpr int kFirstUseBytes = 2048;

struct Options {
  std::string out;
  std::string name = "this machine";
  int reps = 31;
  int hmax = 262144;
  double accuracy = 10;
};

std::string number(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

// The command line, bound to `o` (the same on every process: argv is). Ranges:
//   --reps      integer [1, 10000]             repetitions; 10^4 already takes minutes
//   --hmax      integer [1024, 2^30] bytes     and see check_hmax_for_p
//   --accuracy  real [0.001, 100] percent      y of eq. 4 (g(h) within y% of g_inf)
//   --name      1..256 bytes, no control characters (a value of the machine file)
//   --out       a non-empty path (checked for writing on process 0)
// Each is given once at most. The numbers' errors are strict_number's wording.
void declare_options(instrument::OptionTable& t, Options& o) {
  t.notes("Measures the BSP machine parameters (s, l, g, N_1/2, h_0) of this machine on P processes and\n"
          "writes them as a machine file for bsp_predict and the multigrid model.")
      .output_file("--out", "FILE", o.out,
                   "the machine file to write (a loggps-probe file gets the bsp.* keys, the rest kept)")
      .shown_default("this host's in the per-user cache, else bsp-machine-pP.machine")
      .text("--reps", "R",
            [&o](const std::string& a, const std::string& v) {
              o.reps = static_cast<int>(integer_in_range(v, 1, 10000, {a, "", "the value", "repetitions"}));
            },
            "repetitions, the median kept; R in [1, 10000] (default: 31)")
      .text("--hmax", "BYTES",
            [&o](const std::string& a, const std::string& v) {
              o.hmax = static_cast<int>(integer_in_range(v, 1024, 1073741824, {a, "", "the value", "bytes"}));
            },
            "the largest h-relation; BYTES in [1024, 2^30], at most (2^31 - 65) / P (default: 262144)")
      .text("--accuracy", "Y",
            [&o](const std::string& a, const std::string& v) {
              o.accuracy = real_in_range(v, 0.001, 100, {a, "", "the value", "percent"});
            },
            "y of eq. 4: h_0 is where g(h) is within Y% of g_inf; Y in [0.001, 100] (default: 10)")
      .text("--name", "NAME",
            [&o](const std::string& a, const std::string& v) {
              if (v.empty() || v.size() > 256 ||
                  std::any_of(v.begin(), v.end(),
                              [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
                throw instrument::InputError(a, "",
                                             "expected 1 to 256 bytes without control characters; got " +
                                                 instrument::quote_token(v));
              o.name = v;
            },
            "the machine's name in the file: 1 to 256 bytes, no control characters (default: this machine)")
      .refuse_repeats();
}

// The p-dependent bounds of --hmax: the h-relation is made of 16 steps of 8-byte words over
// the p - 1 other processes (each at least one word per process), and the registered area
// of p x hmax bytes is an int count in BSPlib (2^31 - 1, less the 64 bytes of slack).
void check_hmax_for_p(int hmax, int p) {
  const std::int64_t others = p > 1 ? p - 1 : 1;
  const std::int64_t lo = std::max<std::int64_t>(1024, 16 * 8 * others);
  const std::int64_t hi = std::min<std::int64_t>(1073741824, (2147483647 - 64) / p);
  if (hmax < lo || hmax > hi)
    throw instrument::InputError("--hmax", "",
                                 "the value must be in " + integer_range_text(lo, hi, "bytes") +
                                     " at p = " + std::to_string(p) + " (16 steps of 8-byte words "
                                     "to each other process; p x hmax is an int in BSPlib); got " +
                                     std::to_string(hmax));
}

// What the h-relation buffers take, on every process of this node together (they share its
// memory): src and dst (p + 1) x hmax, destinations and offsets hmax, the library's outgoing
// and incoming streams 2 x hmax, doubled for their growth, and the curves' three buffers.
void check_memory(int hmax, int p) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  const std::uint64_t per_process =
      instrument::saturating_product({static_cast<std::uint64_t>(hmax), static_cast<std::uint64_t>(p) + 9});
  instrument::require_memory(
      instrument::saturating_product({per_process, static_cast<std::uint64_t>(on_node)}), "--hmax",
      "", "measuring h-relations of " + std::to_string(hmax) + " bytes ((p + 9) x hmax = " +
              instrument::format_bytes(per_process) + " on each of the " + std::to_string(on_node) +
              " processes of this node)");
}

// Everything about the run that can be refused before a minute of measuring, checked on every
// process; one process's problem becomes every process's CollectiveError.
Options checked_options(Options o, const std::string& default_out) {
  int p = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string problem;
  try {
    check_hmax_for_p(o.hmax, p);
  } catch (const std::exception& e) {
    problem = e.what();
  }
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, problem);
  try {
    check_memory(o.hmax, p);
    if (o.out.empty()) {
      const std::string cached = instrument::machine_cache::path_for_writing("bsp", p);
      o.out = cached.empty() ? default_out : cached;
    }
    // Process 0 writes: an output we could not or must not write (a device, a FIFO, a file
    // that is not a machine file) is refused now.
    if (rank == 0) {
      const std::string out_problem = instrument::MachineFile::output_problem(o.out);
      if (!out_problem.empty()) throw std::runtime_error(out_problem);
    }
  } catch (const std::exception& e) {
    problem = e.what();
  }
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, problem);
  return o;
}

int probe(const Options& given) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const Options opt = checked_options(given, "bsp-machine-p" + std::to_string(world) + ".machine");
  const std::string& out = opt.out;
  bsp_begin(world);
  const int p = bsp_nprocs(), pid = bsp_pid();
  // First, before any other superstep of this process (first_use.hpp): 2 KiB a pair, a
  // curve point's size and near the 500-relation's 2000 B.
  const FirstUseCosts first_use = measure_first_use(kFirstUseBytes);
  const BspMeasurements meas = measure_bsp_machine(opt.reps, opt.hmax);
  const double s = meas.s;
  const std::vector<double>& hs = meas.h;
  const std::vector<double>& ts = meas.t;
  const LineOfSupersteps lg = fit_supersteps(hs, ts);
  const double l = lg.l, g = lg.g;
  std::vector<double> t_comb, t_sep;  // per byte, after the measured empty superstep
  for (std::size_t i = 0; i < meas.x.size(); ++i) {
    t_comb.push_back(time_per_byte_after(meas.t_combined[i], ts[0], meas.h_x[i]));
    t_sep.push_back(time_per_byte_after(meas.t_separate[i], ts[0], meas.h_x[i]));
  }
  const std::vector<double>& xs = meas.x;
  const GranularityFit fc = fit_granularity(xs, t_comb, g), fs = fit_granularity(xs, t_sep);
  const double n_half_comb = fc.n_half, n_half_sep = fs.n_half;
  const int hmax = static_cast<int>(hs.back());
  const bool l_fixed = lg.l_fixed;
  const double worst = lg.worst_residual;
  const int hgran = meas.h_granular;

  std::string problem;  // process 0's, if it cannot write the machine file
  if (pid == 0) {
    std::printf("bspprobe: p = %d, %d repetitions (medians; T is the time in bsp_sync of the "
                "last process to enter it, as the profiler's comm+sync)\n",
                p, opt.reps);
    std::printf("  s = %.1f Mflop/s (in-cache DAXPY, slowest process)\n", s / 1e6);
    std::printf("  T(h) = l + g h fitted in seconds (least squares on relative residuals) over "
                "h = 0..%d bytes per process%s; worst residual %.1f%%:\n",
                hmax, l_fixed ? " (fitted l < 0: l fixed to T(0), g refitted)" : "",
                100 * worst);
    for (std::size_t i = 0; i < hs.size(); ++i)
      std::printf("    h = %7.0f B  T = %9.3f us  fit %9.3f us\n", hs[i], ts[i] * 1e6,
                  (l + g * hs[i]) * 1e6);
    std::printf("  g(x) (time per byte of h = %d B in messages of x bytes, after T(0)):\n",
                hgran);
    std::printf("    %7s %16s %16s\n", "x [B]", "combined [ns/B]", "separate [ns/B]");
    for (std::size_t i = 0; i < xs.size(); ++i)
      std::printf("    %7.0f %16.3f %16.3f\n", xs[i], t_comb[i] * 1e9, t_sep[i] * 1e9);
    std::printf("  fits: combined g_inf = g = %.4f ns/B, N1/2 = %.1f B; separate messages "
                "g_inf = %.4f ns/B, N1/2 = %.1f B\n",
                fc.g_inf * 1e9, n_half_comb, fs.g_inf * 1e9, n_half_sep);
    std::printf("  h0 for %.0f%% accuracy (eq. 4): %.0f B combined, %.0f B separate\n",
                opt.accuracy, h0_bytes(n_half_comb, opt.accuracy),
                h0_bytes(n_half_sep, opt.accuracy));
    if (!meas.curve_h.empty()) {
      std::printf("  supersteps by pattern (one transfer of h bytes per pair; the library's "
                  "model, T(0) = %.3f us):\n    %9s %12s %12s %12s\n",
                  ts[0] * 1e6, "h [B]", "one way[us]", "exchange[us]", "gets[us]");
      for (std::size_t i = 0; i < meas.curve_h.size(); ++i)
        std::printf("    %9.0f %12.3f %12.3f %12.3f\n", meas.curve_h[i],
                    meas.curve_one_way[i] * 1e6, meas.curve_exchange[i] * 1e6,
                    meas.curve_gets[i] * 1e6);
    }
    std::printf("  supersteps after a gap of spinning on the clock (as T: the last process to enter):\n"
                "    %9s %12s %12s %12s\n", "gap [us]", "empty[us]", "64 B[us]", "2 KiB[us]");
    for (std::size_t i = 0; i < meas.gap.size(); ++i)
      std::printf("    %9.0f %12.3f %12.3f %12.3f\n", meas.gap[i] * 1e6, meas.after_gap_empty[i] * 1e6,
                  meas.after_gap_64[i] * 1e6, meas.after_gap_2048[i] * 1e6);
    std::printf("  supersteps after a pass over a working set (read and written; up to twice the L3 sysfs reports, at least 64 MiB;\n"
                "  as T: the last process to enter):\n"
                "    %9s %12s %12s %12s\n", "set [KiB]", "empty[us]", "64 B[us]", "2 KiB[us]");
    for (std::size_t i = 0; i < meas.working_set.size(); ++i)
      std::printf("    %9.0f %12.3f %12.3f %12.3f\n", meas.working_set[i] / 1024, meas.after_stream_empty[i] * 1e6,
                  meas.after_stream_64[i] * 1e6, meas.after_stream_2048[i] * 1e6);
    if (!first_use.none())
      std::printf("  a fresh process's first supersteps (right after bsp_begin, once each; as T): first "
                  "superstep (a registration) %.3f us; first of %.0f B: exchange %.3f us, one way %.3f us, "
                  "gets %.3f us; first pop (an empty superstep) %.3f us\n",
                  first_use.first_superstep * 1e6, first_use.h_bytes, first_use.exchange * 1e6,
                  first_use.one_way * 1e6, first_use.gets * 1e6, first_use.pop * 1e6);
    if (!meas.round_trip.empty()) {
      const auto [lo, hi] = std::minmax_element(meas.round_trip.begin(), meas.round_trip.end());
      std::printf("  cache-line round trip between the processes' CPUs, before each repetition: "
                  "median %.0f ns over %zu, range [%.0f, %.0f] ns; T(h), the curves, the gaps and the working sets "
                  "are of the %.0f%% of repetitions within 1.5x of the median\n",
                  meas.placement * 1e9, meas.round_trip.size(), *lo * 1e9, *hi * 1e9,
                  100 * meas.placement_kept);
      if (meas.placement_kept < 0.9)
        std::printf("  note: the host moved the processes' CPUs (or descheduled one) during %.0f%% "
                    "of the repetitions\n", 100 * (1 - meas.placement_kept));
    }
    std::printf("\n  Table 1 columns (word = 32 bits):\n");
    std::printf("  %-16s %12s %3s %10s %10s %10s %10s %12s\n", "machine", "s [flop/s]", "p",
                "l [flops]", "l [us]", "g [flops]", "g [us]", "N1/2 [words]");
    std::printf("  %-16.16s %12.3g %3d %10.0f %10.2f %10.3f %10.5f %12.1f\n", opt.name.c_str(),
                s, p, l * s, l * 1e6, g * 4 * s, g * 4 * 1e6, n_half_comb / 4);
    BspMachine m;
    m.name = opt.name;
    m.source = "bspprobe";
    m.p = p;
    m.s_flops = s;
    m.l_seconds = l;
    m.g_seconds_per_byte = g;
    m.n_half_bytes = n_half_comb;
    m.extra["bsp.n_half_bytes_separate_messages"] = number(n_half_sep);
    m.extra["bsp.g_inf_seconds_per_byte_separate_messages"] = number(fs.g_inf);
    m.extra["bsp.h0_bytes"] = number(h0_bytes(n_half_comb, opt.accuracy));
    m.extra["bsp.h0_accuracy_percent"] = number(opt.accuracy);
    m.core_round_trip_seconds = meas.placement;
    if (!meas.round_trip.empty()) {
      const auto [lo, hi] = std::minmax_element(meas.round_trip.begin(), meas.round_trip.end());
      std::string range = number(*lo);
      range += ' ';
      range += number(*hi);
      m.extra["bsp.core_round_trip_range_seconds"] = range;
      m.extra["bsp.core_round_trip_kept_fraction"] = number(meas.placement_kept);
    }
    m.curves.empty_seconds = ts[0];
    m.curves.h_bytes = meas.curve_h;
    m.curves.one_way = meas.curve_one_way;
    m.curves.exchange = meas.curve_exchange;
    m.curves.gets = meas.curve_gets;
    m.after_gap.gap_seconds = meas.gap;
    m.after_gap.empty = meas.after_gap_empty;
    m.after_gap.one_way_64 = meas.after_gap_64;
    m.after_gap.one_way_2048 = meas.after_gap_2048;
    m.after_stream.working_set_bytes = meas.working_set;
    m.after_stream.empty = meas.after_stream_empty;
    m.after_stream.one_way_64 = meas.after_stream_64;
    m.after_stream.one_way_2048 = meas.after_stream_2048;
    m.first_use = first_use;
    if (const std::string which = disturbed_first_use(first_use, m.curves); !which.empty()) {
      std::printf("  note: bsp.first_use.%s_seconds is over %.0fx its back-to-back cost (a single "
                  "sample the host disturbed): no first-use figures written\n",
                  which.c_str(), kFirstUseDisturbed);
      m.first_use = FirstUseCosts{};
    }
    try {
      // A fit outside the machine-file ranges (g < 0 from a noisy run) is refused here
      // rather than by every later reader of the file.
      try {
        validate_machine(m, "fitted parameters");
      } catch (const instrument::InputError& e) {
        throw std::runtime_error(std::string(e.what()) +
                                 " (too noisy a measurement: rerun with more --reps or a larger "
                                 "--hmax; nothing written)");
      }
      std::fflush(stdout);
      write_machine_file(out, m, "measured by bspprobe: l and g fitted in seconds");
      std::printf("\n  wrote %s\n", out.c_str());
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  bsp_end();
  // MPI is the wrapper's (run_mpi_main): every process returns from bsp_end and learns here
  // whether process 0 could write the file.
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, problem);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("bspprobe", "mpiexec -n P bspprobe [options]");
  declare_options(table, o);
  return instrument::run_app(argc, argv, table, [&] { return probe(o); });
}
