// loggps-probe: measures this machine's LogGPS parameters (Ino et al., PPoPP'01, Table 5)
// and the LogGP size bands of Sundaram-Stukel & Vernon (PPoPP'99, §3) between two ranks,
// and writes them to a machine file that the apps read with `--machine FILE`.
//
//   mpiexec -n 2 loggps-probe [--out FILE] [--reps N] [--max-bytes B] [--quick]
//
// Three experiments over geometric sizes 1 B .. max-bytes (4 MiB by default):
//   1. ping-pong round trips, no delay                 -> RTT(k, 0)        eq. (12)-(14), w=0
//   2. the RTT program of §4.3: rank 0 sends, computes
//      for w, then receives; w larger than the RTT     -> RTT(k, w) - w    eq. (12)-(14)
//   3. MPI_Send towards a receiver that posts 20 ms late: the send returns in microseconds
//      when it is eager and waits ~20 ms when it is synchronous -> S (largest eager size),
//      scanned over the sizes and then bisected to the byte.
// Each time is the median of --reps repetitions; the fits live in probe_fit.cpp.
//
// The timed loops are in probe_measure.cpp (raw MPI, see there why), the fits in
// probe_fit.cpp (no MPI, unit-tested); this file is the command line, the report and the file.
// Run time here (2 cores, idle): about 5-10 s in full, 1-4 s with --quick; most of --quick is
// the late-receiver search (about 35 sizes x 3 trials x 20 ms).
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/probe_fit.hpp"
#include "instrument/probe_measure.hpp"
#include "instrument/run_results.hpp"

namespace {

using instrument::CollectiveError;
using instrument::now_seconds;
using instrument::probe::RttSample;
using instrument::probe::kLateReceiverDelay;
using instrument::probe::LateSend;
using instrument::probe::Pair;

struct Options {
  std::string out = "loggps.machine";
  int reps = 51;
  std::int64_t max_bytes = std::int64_t{4} << 20;
  bool quick = false;
};

const char* kUsage = "usage: mpiexec -n 2 loggps-probe [--out FILE] [--reps N] [--max-bytes B] [--quick]";

// Every rank parses the same argv, so a bad option is a collective error.
Options parse_options(int argc, char** argv) {
  Options o;
  bool reps_given = false;
  auto number = [&](int& i, const char* name) -> std::int64_t {
    if (i + 1 >= argc) throw CollectiveError(std::string(name) + ": expected a value; " + kUsage);
    const std::string v = argv[++i];
    char* end = nullptr;
    const long long n = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 1) {
      throw CollectiveError(std::string(name) + ": expected a positive integer, got '" + v + "'");
    }
    return n;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out") {
      if (i + 1 >= argc) throw CollectiveError(std::string("--out: expected a file name; ") + kUsage);
      o.out = argv[++i];
    } else if (a == "--reps") {
      o.reps = static_cast<int>(std::min<std::int64_t>(number(i, "--reps"), 100000));
      reps_given = true;
    } else if (a == "--max-bytes") {
      o.max_bytes = number(i, "--max-bytes");
      if (o.max_bytes > (std::int64_t{1} << 30) || o.max_bytes < 1024) {
        throw CollectiveError("--max-bytes: expected 1024 .. 1073741824 bytes, got " + std::to_string(o.max_bytes));
      }
    } else if (a == "--quick") {
      o.quick = true;
    } else {
      throw CollectiveError("unknown option '" + a + "'; " + kUsage);
    }
  }
  if (o.quick && !reps_given) o.reps = 9;
  return o;
}

std::vector<std::int64_t> geometric_sizes(std::int64_t max_bytes) {
  std::vector<std::int64_t> s;
  for (std::int64_t k = 1; k <= max_bytes; k *= 2) s.push_back(k);
  if (s.back() != max_bytes) s.push_back(max_bytes);
  return s;
}

double us(double s) { return s * 1e6; }
double ns(double s) { return s * 1e9; }

void print_report(const Options& o, const std::vector<RttSample>& rtt0,
                  const std::vector<RttSample>& rttw, const std::vector<double>& w_used,
                  const instrument::probe::ThresholdSearch& th, const LateSend& late,
                  const instrument::probe::LogGpsFit& fit, const instrument::loggp::LogGpParams& gp,
                  double loggp_max_err, const char* rndv_env) {
  namespace lg = instrument::loggps;
  const auto& p = fit.params;
  std::printf("loggps-probe: 2 ranks, %d repetitions per size (median), sizes 1 B .. %lld B\n",
              o.reps, static_cast<long long>(o.max_bytes));
  std::printf("UCX_RNDV_THRESH=%s\n\n", rndv_env ? rndv_env : "(unset: UCX default)");

  std::printf("S, measured (MPI_Send towards a receiver posting %.0f ms late; median of 3):\n",
              kLateReceiverDelay * 1e3);
  for (std::size_t i = 0; i < late.sizes.size(); ++i) {
    std::printf("  %9lld B  send %10.1f us  %s\n", static_cast<long long>(late.sizes[i]),
                us(late.seconds[i]), late.seconds[i] > 0.5 * kLateReceiverDelay ? "waits" : "returns");
  }
  if (th.first_waiting < 0) std::printf("  no size up to %lld B waited: S >= that\n", static_cast<long long>(th.S));
  else std::printf("  S = %lld B (largest eager); MPI_Send waits from %lld B%s\n\n", static_cast<long long>(th.S),
                   static_cast<long long>(th.first_waiting), th.monotone ? "" : "  (WARNING: not monotone)");

  std::printf("LogGPS parameters (Ino et al. Table 5 units):\n");
  std::printf("  L   = %10.4f us     o'  = %10.4f us\n", us(p.L), us(p.o_prime));
  std::printf("  O_s = %10.5f ns/B   O_r = %10.5f ns/B\n", ns(p.O_s), ns(p.O_r));
  std::printf("  G_s = %10.5f ns/B   G_l = %10.5f ns/B\n", ns(p.G_s), ns(p.G_l));
  std::printf("  s   = %lld B   S = %lld B\n", static_cast<long long>(p.s), static_cast<long long>(p.S));
  for (const auto& st : p.gap_steps)
    std::printf("  gap step (extension): bytes beyond %lld B cost %.5f ns/B\n",
                static_cast<long long>(st.above_bytes), ns(st.G));
  if (p.L < 0.0 || p.o_prime < 0.0) {
    std::printf("  (negative L or o': effective parameters of the MPI routines, as the paper's G_l < 0;\n"
                "   here receiving a message that has already arrived costs more than half a ping-pong)\n");
  }
  std::printf("\nLogGP parameters (Sundaram-Stukel & Vernon eq. 1-4): L = %.4f us, handshake from %lld B\n",
              us(gp.L), static_cast<long long>(gp.rendezvous_bytes));
  std::int64_t lower = 0;
  for (const auto& b : gp.bands) {
    std::printf("  band (%lld, %lld] B: o = %9.4f us  G = %9.5f ns/B\n", static_cast<long long>(lower),
                static_cast<long long>(b.upper_bytes), us(b.o), ns(b.G));
    lower = b.upper_bytes;
  }

  std::printf("\nPer size. RTT = round trip measured on rank 0 (send + receive back); one-way = RTT/2.\n");
  std::printf("RTT(w)-w: round trip with rank 0 computing w between its send and receive, minus w.\n");
  std::printf("%9s %11s %11s %7s %11s %7s | %11s %11s %7s %9s\n", "bytes", "RTT meas", "LogGPS", "err%",
              "LogGP", "err%", "RTT(w)-w", "LogGPS", "err%", "w");
  std::printf("%9s %11s %11s %7s %11s %7s | %11s %11s %7s %9s\n", "", "us", "us", "", "us", "", "us", "us", "", "us");
  double worst_w = 0.0;
  for (std::size_t i = 0; i < rtt0.size(); ++i) {
    const std::int64_t k = rtt0[i].bytes;
    const double m0 = lg::round_trip_time(p, k, 0.0);
    const double mg = instrument::loggp::round_trip_time(gp, k);
    const double mw = lg::round_trip_time(p, k, w_used[i]) - w_used[i];
    const double ew = instrument::probe::relative_error(mw, rttw[i].seconds);
    worst_w = std::max(worst_w, std::fabs(ew));
    std::printf("%9lld %11.3f %11.3f %+7.1f %11.3f %+7.1f | %11.3f %11.3f %+7.1f %9.1f\n",
                static_cast<long long>(k), us(rtt0[i].seconds), us(m0),
                100 * instrument::probe::relative_error(m0, rtt0[i].seconds), us(mg),
                100 * instrument::probe::relative_error(mg, rtt0[i].seconds), us(rttw[i].seconds), us(mw),
                100 * ew, us(w_used[i]));
  }
  std::printf("\nmax |error| of RTT(w=0): LogGPS %.1f%%, LogGP %.1f%%; of RTT(w)-w: LogGPS %.1f%%\n",
              100 * fit.max_rel_error_no_delay, 100 * loggp_max_err, 100 * worst_w);
}

int probe_main(int argc, char** argv) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    throw CollectiveError("needs exactly 2 ranks, got " + std::to_string(size) +
                          " (run: mpiexec -n 2 loggps-probe)");
  }
  const Options o = parse_options(argc, argv);
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, rank == 0 ? instrument::MachineFile::output_problem(o.out) : "");
  const double t_start = now_seconds();

  Pair p{rank, 1 - rank, std::vector<char>(static_cast<std::size_t>(o.max_bytes), 'a'),
         std::vector<char>(static_cast<std::size_t>(o.max_bytes), 'b')};
  const auto sizes = geometric_sizes(o.max_bytes);

  // 1 and 2: round trips without and with a delay (w three times the plain round trip, and
  // at least 20 us, so the max{} terms of eq. 12-14 vanish).
  std::vector<RttSample> rtt0, rttw;
  std::vector<double> w_used(sizes.size(), 0.0);
  const auto m0 = instrument::probe::median_round_trips(p, sizes, w_used, o.reps);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    rtt0.push_back({sizes[i], m0[i]});
    w_used[i] = std::max(20e-6, 3.0 * m0[i]);  // only rank 0 computes w; rank 1 ignores it
  }
  const auto mw = instrument::probe::median_round_trips(p, sizes, w_used, o.reps);
  for (std::size_t i = 0; i < sizes.size(); ++i) rttw.push_back({sizes[i], mw[i]});
  const double t_rtt = now_seconds();

  // 3: S from the late receiver.
  LateSend late;
  const auto th = instrument::probe::find_synchronous_threshold(
      sizes, [&](std::int64_t k) { return instrument::probe::send_waits_for_late_receiver(p, k, late); });
  const double t_late = now_seconds();

  std::string error;
  if (rank == 0) {
    try {
      const auto fit = instrument::probe::fit_loggps(rtt0, rttw, th.S);
      instrument::probe::LogGpsFitOptions paper_only;
      paper_only.max_gap_steps = 0;
      const auto paper = instrument::probe::fit_loggps(rtt0, rttw, th.S, paper_only);
      const std::int64_t rendezvous = th.first_waiting > 0 ? th.first_waiting : o.max_bytes + 1;
      const auto gp = instrument::probe::fit_loggp(rtt0, rendezvous, fit.params.L);
      double gp_err = 0.0;
      for (const auto& d : rtt0)
        gp_err = std::max(gp_err, std::fabs(instrument::probe::relative_error(
                                      instrument::loggp::round_trip_time(gp, d.bytes), d.seconds)));
      const char* rndv_env = std::getenv("UCX_RNDV_THRESH");
      print_report(o, rtt0, rttw, w_used, th, late, fit, gp, gp_err, rndv_env);
      std::printf("the paper's model alone (no gap steps) fits RTT(w=0) within %.1f%% at best "
                  "(s = %lld B, L = %.4f us, o' = %.4f us, G_s = %.4f ns/B, G_l = %.4f ns/B)\n",
                  100 * paper.max_rel_error_no_delay, static_cast<long long>(paper.params.s),
                  us(paper.params.L), us(paper.params.o_prime), ns(paper.params.G_s), ns(paper.params.G_l));
      if (rtt0.front().seconds > 50e-6) {
        std::printf("WARNING: a 1-byte round trip took %.0f us: the node is oversubscribed (ranks are "
                    "descheduled), the fitted parameters describe the scheduler, not the network\n",
                    us(rtt0.front().seconds));
      }

      const auto info = instrument::make_run_info("loggps-probe", MPI_COMM_SELF);
      // One machine file can hold every probe's keys (bspprobe writes its own): keep what
      // another probe wrote there, replace ours.
      instrument::MachineFile mf = instrument::MachineFile::read_to_merge(o.out);
      for (const char* ours : {"loggps.", "loggp.", "probe."}) mf.erase_prefix(ours);
      mf.comment("written by loggps-probe; read by the apps with --machine FILE");
      mf.set("source", "loggps-probe");
      mf.set("date", info.date);
      mf.set("host", info.host);
      mf.set("mpi_library", info.mpi_library);
      mf.set("ucx_rndv_thresh", rndv_env && *rndv_env ? std::string(rndv_env) : std::string("default"));
      mf.set("probe.reps", static_cast<std::int64_t>(o.reps));
      mf.set("probe.max_bytes", o.max_bytes);
      mf.set("probe.late_receiver_delay", kLateReceiverDelay);
      mf.set("probe.first_waiting_bytes", th.first_waiting);
      instrument::loggps::write_params(fit.params, mf);
      mf.set("loggps.max_rel_error_rtt", fit.max_rel_error_no_delay);
      mf.set("loggps.paper_only_max_rel_error_rtt", paper.max_rel_error_no_delay);
      instrument::loggp::write_params(gp, mf);
      mf.set("loggp.max_rel_error_rtt", gp_err);
      mf.write(o.out);
      const double t_end = now_seconds();
      std::printf("\nwrote %s\nprobe time: %.2f s (round trips %.2f s, late-receiver sends %.2f s, fit %.2f s)\n",
                  o.out.c_str(), t_end - t_start, t_rtt - t_start, t_late - t_rtt, t_end - t_late);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, error);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return instrument::run_mpi_main(argc, argv, "loggps-probe", probe_main);
}
