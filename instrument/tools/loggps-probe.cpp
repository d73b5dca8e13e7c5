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
//   4. MPI_Send above S to a receiver already waiting, at two sizes: how its time grows says
//      whether a blocking rendezvous send returns after injecting (Ino's eq. 5) or after the
//      transfer (loggps.hpp, extension 2); the fit of 1-2 then uses that rule.
//   5. the first MPI call after both ranks streamed a working set of N bytes (--working-sets):
//      an 8-byte allreduce with the ranks 20 us apart, a receive of a message already there,
//      an eager send, and a message above S (--rendezvous-bytes) sent by the rendezvous, its
//      send and its receive each timed from its partner's arrival (probe_cold.hpp)
//      -> the loggp.cold.* keys (loggp_cold.hpp), which the
//      apps' models use for the calls that follow a kernel block.
//   6. the first collective after a one-way message stream (--stream-messages M of
//      --stream-bytes, 70 us apart), then a second one (probe_cold.hpp, measure_after_stream)
//      -> the loggp.after_stream.* keys, by the time since the previous collective, which is
//      what the cost follows; sweep3d prices its first reduction of an iteration by it. Once
//      with the ranks spinning between the messages, and once a --stream-working-sets size
//      with their compute streaming that many bytes, as a kernel's blocks do.
//   7. an eager send with the peer's message waiting, not received, and without (--pending-bytes;
//      probe_pending.hpp) -> the loggp.pending.* keys, merged into the file written by 1-6.
// Each time is the median of --reps repetitions. Each model is derived as its paper does when
// that is physical and otherwise by a constrained fit (probe_fit.hpp says which and why; the
// report and the file say which was used); the file is checked against the models' constraints
// (loggp::validate, loggps::validate) before it is written.
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
#include <optional>
#include <stdexcept>
#include <utility>
#include <string>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/core_round_trip.hpp"
#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggp_cold.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_cache.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/probe_cold.hpp"
#include "instrument/probe_cold_costs.hpp"
#include "instrument/probe_pending.hpp"
#include "instrument/probe_fit.hpp"
#include "instrument/probe_measure.hpp"
#include "instrument/run_app.hpp"
#include "instrument/run_results.hpp"

namespace {

using instrument::probe::after_stream_costs;
using instrument::probe::after_stream_problem;
using instrument::probe::cold_costs;
using instrument::probe::cold_dropped;
using instrument::probe::cold_problem;

using instrument::CollectiveError;
using instrument::now_seconds;
using instrument::probe::RttSample;
using instrument::probe::kLateReceiverDelay;
using instrument::probe::LateSend;
using instrument::probe::Pair;

struct Options {
  std::string out;  // "": this host's file in the per-user cache (out_path)
  int reps = 51;
  std::int64_t max_bytes = std::int64_t{4} << 20;
  bool quick = false;
  // Experiment 5's working sets (bytes per rank); 0, the warm reference, is always measured.
  // 512 KiB and 1 MiB bracket this CPU's L2 (1 MiB a core), where the apps' blocks sit
  // (Sweep3D input50's 0.92 MB): measured, not interpolated across the L2's edge.
  std::vector<std::int64_t> working_sets{0, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 16 << 20, 64 << 20};
  // Experiment 6's message counts (0, the reference, is always measured) and message size
  // (Sweep3D input50's 1x2 face; at most --max-bytes).
  // Up to 320 x 70 us = 22 ms: an iteration of the apps' decks since the previous collective.
  std::vector<int> stream_messages{0, 5, 10, 20, 40, 80, 160, 320};
  std::int64_t stream_bytes = 12000;
  // Experiment 6's working sets (bytes each rank's compute streams; 0, the spinning series, is
  // always measured). Sweep3D input50 holds 4.6 MB a rank at 1x2, 9.2 MB at 1 rank; 1 MiB is
  // this CPU's L2.
  std::vector<std::int64_t> stream_working_sets{0, 1 << 20, 4 << 20, 16 << 20};
  // Experiment 5's messages above the eager limit: Sweep3D input50's 1x2 face and twice it.
  // Sizes at or below the measured S (eager there) or above --max-bytes are left out.
  std::vector<std::int64_t> rendezvous_bytes{12000, 24000};
  std::vector<std::int64_t> pending_bytes = instrument::probe::default_pending_sizes();  // experiment 7
};

// At most this many repetitions of experiment 5 (each streams every working set 5 times, and
// twice a rendezvous size).
constexpr int kColdRepsMax = 15;

// "0,262144,2097152": whole numbers of bytes in [0, 1 GiB], increasing, at most `most` of them
// above 0; 0 is added in front when it is not given.
std::vector<std::int64_t> parse_working_sets(const std::string& option, const std::string& text, std::size_t most) {
  std::vector<std::int64_t> sizes =
      instrument::increasing_whole_options(option, text, 0, std::int64_t{1} << 30, most + 1, "B");
  if (sizes.front() != 0) sizes.insert(sizes.begin(), 0);
  if (sizes.size() > most + 1)
    throw instrument::InputError("command line", option, "expected at most " + std::to_string(most) + " sizes above 0");
  return sizes;
}

// "12000,24000": whole numbers of bytes in [1, 1 GiB], increasing, at most 8.
std::vector<std::int64_t> parse_rendezvous_sizes(const std::string& option, const std::string& text) {
  return instrument::increasing_whole_options(option, text, 1, std::int64_t{1} << 30, 8, "B");
}

// "0,5,10": whole numbers of messages in [0, 1000], increasing, at most 16; 0 is added in
// front when it is not given.
std::vector<int> parse_message_counts(const std::string& option, const std::string& text) {
  const std::vector<std::int64_t> given = instrument::increasing_whole_options(option, text, 0, 1000, 16, "", "counts");
  std::vector<int> counts(given.begin(), given.end());
  if (counts.front() != 0) counts.insert(counts.begin(), 0);
  if (counts.size() > 16) throw instrument::InputError("command line", option, "expected at most 16 counts");
  return counts;
}

// The command line, bound to `o`. Every option's range is named in its error; nothing is
// clamped. --reps: each size is timed reps times (x3 curves): 10^5 is hours already.
// --max-bytes: the largest message, two buffers of it per rank; the models' checks reach
// 16 MiB, 1 GiB is far beyond any eager/rendezvous switch.
void declare_options(instrument::OptionTable& t, Options& o) {
  t.notes("Measures this machine's LogGPS and LogGP parameters between two ranks and writes them to\n"
          "a machine file, which the apps read with --machine FILE.")
      .output_file("--out", "FILE", o.out, "the machine file to write (its other keys are kept)")
      .shown_default("this host's file in the per-user cache, where the apps look (instrument/machine_cache.hpp); "
                     "loggps.machine when there is no cache directory")
      .whole("--reps", "N", o.reps, 1, 100000, "", "repetitions a size, the median kept")
      .shown_default("51; 9 with --quick")
      .whole("--max-bytes", "B", o.max_bytes, 1024, std::int64_t{1} << 30, "B", "the largest message")
      .flag("--quick", o.quick, "fewer repetitions (9 unless --reps is given)")
      .text("--working-sets", "B[,B...]",
            [&o](const std::string& name, const std::string& v) { o.working_sets = parse_working_sets(name, v, 15); },
            "bytes each rank streams before the cold-message measurements, increasing, each in [0, 2^30] B, "
            "at most 16 (0, the warm reference, is always measured)")
      .shown_default("0,262144,524288,1048576,2097152,16777216,67108864")
      .text("--rendezvous-bytes", "B[,B...]",
            [&o](const std::string& name, const std::string& v) { o.rendezvous_bytes = parse_rendezvous_sizes(name, v); },
            "message sizes above the eager limit timed after each working set (send and receive, each from its "
            "partner's arrival), increasing, each in [1, 2^30] B, at most 8; those at or below the measured "
            "eager limit or above --max-bytes are left out")
      .shown_default("12000,24000")
      .text("--stream-messages", "M[,M...]",
            [&o](const std::string& name, const std::string& v) { o.stream_messages = parse_message_counts(name, v); },
            "one-way messages (70 us apart) before the first-collective measurement, increasing, each in "
            "[0, 1000], at most 16 (0, the reference, is always measured)")
      .shown_default("0,5,10,20,40,80,160,320")
      .whole("--stream-bytes", "B", o.stream_bytes, 1, std::int64_t{1} << 30, "B",
             "the size of those messages (at most --max-bytes: larger is measured at --max-bytes)")
      .shown_default("12000")
      .text("--stream-working-sets", "B[,B...]",
            [&o](const std::string& name, const std::string& v) {
              o.stream_working_sets = parse_working_sets(name, v, 8);
            },
            "bytes each rank's compute streams during that stream (read and write, round and round), "
            "increasing, each in [0, 2^30] B, at most 8 above 0 (0, ranks that spin, is always measured)")
      .shown_default("0,1048576,4194304,16777216; 0,4194304 with --quick")
      .text("--pending-bytes", "B[,B...]",
            [&o](const std::string& name, const std::string& v) {
              o.pending_bytes = instrument::probe::parse_pending_sizes(name, v);
            },
            "sizes of the send timed with the peer's message of that size waiting and without, increasing, "
            "each in [1, 2^24] B, at most 16; those above the measured eager limit are left out")
      .shown_default("64,512,2048,8192")
      .after_reading([&t, &o] {
        if (o.quick && !t.given("--reps")) o.reps = 9;
        // Each series of experiment 6 is as long as the spinning one (~0.5 s idle, tens of
        // seconds on a loaded host): --quick keeps one streaming size, an app's per-rank arrays.
        if (o.quick && !t.given("--stream-working-sets")) o.stream_working_sets = {0, 4 << 20};
      });
}

std::vector<std::int64_t> geometric_sizes(std::int64_t max_bytes) {
  std::vector<std::int64_t> s;
  for (std::int64_t k = 1; k <= max_bytes; k *= 2) s.push_back(k);
  if (s.back() != max_bytes) s.push_back(max_bytes);
  return s;
}

double us(double s) { return s * 1e6; }
double ns(double s) { return s * 1e9; }

void print_s_search(const instrument::probe::ThresholdSearch& th, const LateSend& late) {
  std::printf("S, measured (MPI_Send towards a receiver posting %.0f ms late; median of 3):\n",
              kLateReceiverDelay * 1e3);
  for (std::size_t i = 0; i < late.sizes.size(); ++i) {
    std::printf("  %9lld B  send %10.1f us  %s\n", static_cast<long long>(late.sizes[i]),
                us(late.seconds[i]), late.seconds[i] > 0.5 * kLateReceiverDelay ? "waits" : "returns");
  }
  if (th.first_waiting < 0) std::printf("  no size up to %lld B waited: S >= that\n", static_cast<long long>(th.S));
  else std::printf("  S = %lld B (largest eager); MPI_Send waits from %lld B%s\n\n", static_cast<long long>(th.S),
                   static_cast<long long>(th.first_waiting), th.monotone ? "" : "  (WARNING: not monotone)");
}

void print_loggps_values(const instrument::loggps::LogGpsParams& p, const char* indent) {
  std::printf("%sL   = %10.4f us     o'  = %10.4f us\n", indent, us(p.L), us(p.o_prime));
  std::printf("%sO_s = %10.5f ns/B   O_r = %10.5f ns/B\n", indent, ns(p.O_s), ns(p.O_r));
  std::printf("%sG_s = %10.5f ns/B   G_l = %10.5f ns/B\n", indent, ns(p.G_s), ns(p.G_l));
  std::printf("%ss   = %lld B   S = %lld B\n", indent, static_cast<long long>(p.s), static_cast<long long>(p.S));
  for (const auto& st : p.gap_steps)
    std::printf("%sgap step (extension): bytes beyond %lld B cost %.5f ns/B\n", indent,
                static_cast<long long>(st.above_bytes), ns(st.G));
}

bool at_floor(double v) { return v <= instrument::probe::kTimeFloor * (1.0 + 1e-9); }

void print_floor_note(bool at, const char* name) {
  if (!at) return;
  std::printf("  (%s is at the fit's floor of %.0f ns, the clock's resolution: these round trips do not\n"
              "   resolve it; for L: the delayed round trip of the smallest messages, their overheads alone,\n"
              "   is as long as the one-way trip, so nothing is left for the flight)\n",
              name, instrument::probe::kTimeFloor * 1e9);
}

void print_loggps(const instrument::probe::LogGpsFit& fit) {
  std::printf("LogGPS parameters (Ino et al. Table 5 units), derivation: %s\n", fit.derivation.c_str());
  if (!fit.rejected.empty()) {
    std::printf("  Ino et al. §4.3 (unconstrained least squares of eq. 12-14, worst round trip %.1f%%) gave\n",
                100 * fit.paper_max_rel_error);
    print_loggps_values(fit.paper, "    ");
    std::printf("  rejected: %s\n", fit.rejected.c_str());
    std::printf("  instead: the same equations with every parameter >= 0 and o', L >= 1 ns (non-negative least\n"
                "  squares):\n");
  }
  print_loggps_values(fit.params, "  ");
  print_floor_note(fit.derivation == "constrained" && at_floor(fit.params.L), "L");
  print_floor_note(fit.derivation == "constrained" && at_floor(fit.params.o_prime), "o'");
}

void print_loggp(const instrument::probe::LogGpFit& fit) {
  namespace lg = instrument::loggp;
  const auto& gp = fit.params;
  std::printf("\nLogGP parameters (Sundaram-Stukel & Vernon eq. 1-4), derivation: %s\n", fit.derivation.c_str());
  if (fit.ssv.solvable) {
    std::printf("  §3.3's three equations on the band intercepts, a1 = 2o_s + L (first band), a2 = 2o_l + L\n"
                "  (last band below the handshake), a3 = 3o_s + 2o_l + 3L (first band above it):\n"
                "  a1 = %.4f us, a2 = %.4f us, a3 = %.4f us -> L = %.4f us, o_s = %.4f us, o_l = %.4f us\n",
                us(fit.ssv.a1), us(fit.ssv.a2), us(fit.ssv.a3), us(fit.ssv.L), us(fit.ssv.o_s), us(fit.ssv.o_l));
  }
  if (!fit.rejected.empty()) {
    std::printf("  rejected: %s\n", fit.rejected.c_str());
    std::printf("  instead: o constant per protocol (o_s eager and for the handshake's header and ack, o_l for\n"
                "  its data), a continuous per-byte cost X(k) (each band's G for the bytes in its range), and\n"
                "  L split from o_s by the delayed round trip of the smallest messages (= 2 o_s, Ino et al.\n"
                "  §4.3); non-negative least squares with L, o >= 1 ns and G >= 0, so every cost is\n"
                "  positive and monotone\n");
  }
  std::printf("  L = %.4f us, handshake from %lld B, per-byte cost: %s\n", us(gp.L),
              static_cast<long long>(gp.rendezvous_bytes),
              gp.per_byte == lg::PerByteCost::cumulative ? "cumulative (X(k) continuous)" : "band rate (X(k) = k G)");
  print_floor_note(fit.derivation == "constrained" && at_floor(gp.L), "L");
  std::int64_t lower = 0;
  for (const auto& b : gp.bands) {
    std::printf("  band (%lld, %lld] B: o = %9.4f us  G = %9.5f ns/B\n", static_cast<long long>(lower),
                static_cast<long long>(b.upper_bytes), us(b.o), ns(b.G));
    lower = b.upper_bytes;
  }
}

void print_report(const Options& o, const std::vector<RttSample>& rtt0,
                  const std::vector<RttSample>& rttw, const std::vector<double>& w_used,
                  const instrument::probe::ThresholdSearch& th, const LateSend& late,
                  const instrument::probe::LogGpsFit& fit, const instrument::probe::LogGpFit& gfit,
                  const char* rndv_env) {
  namespace lg = instrument::loggps;
  using instrument::relative_error;
  const auto& p = fit.params;
  std::printf("loggps-probe: 2 ranks, %d repetitions per size (median), sizes 1 B .. %lld B\n",
              o.reps, static_cast<long long>(o.max_bytes));
  std::printf("UCX_RNDV_THRESH=%s\n\n", rndv_env ? rndv_env : "(unset: UCX default)");
  print_s_search(th, late);
  print_loggps(fit);
  print_loggp(gfit);

  std::printf("\nPer size. RTT = round trip measured on rank 0 (send + receive back); one-way = RTT/2.\n");
  std::printf("RTT(w)-w: round trip with rank 0 computing w between its send and receive, minus w.\n");
  std::printf("%9s %11s %11s %7s %11s %7s | %11s %11s %7s %9s\n", "bytes", "RTT meas", "LogGPS", "err%",
              "LogGP", "err%", "RTT(w)-w", "LogGPS", "err%", "w");
  std::printf("%9s %11s %11s %7s %11s %7s | %11s %11s %7s %9s\n", "", "us", "us", "", "us", "", "us", "us", "", "us");
  for (std::size_t i = 0; i < rtt0.size(); ++i) {
    const std::int64_t k = rtt0[i].bytes;
    const double m0 = lg::round_trip_time(p, k, 0.0);
    const double mg = instrument::loggp::round_trip_time(gfit.params, k);
    const double mw = lg::round_trip_time(p, k, w_used[i]) - w_used[i];
    std::printf("%9lld %11.3f %11.3f %+7.1f %11.3f %+7.1f | %11.3f %11.3f %+7.1f %9.1f\n",
                static_cast<long long>(k), us(rtt0[i].seconds), us(m0), 100 * relative_error(m0, rtt0[i].seconds),
                us(mg), 100 * relative_error(mg, rtt0[i].seconds), us(rttw[i].seconds), us(mw),
                100 * relative_error(mw, rttw[i].seconds), us(w_used[i]));
  }
  std::printf("\nworst |error| of RTT(w=0), 1 B .. %lld B: LogGPS %.1f%% (%s), LogGP %.1f%% (%s); "
              "of RTT(w)-w: LogGPS %.1f%%\n",
              static_cast<long long>(o.max_bytes), 100 * fit.max_rel_error_no_delay, fit.derivation.c_str(),
              100 * gfit.max_rel_error, gfit.derivation.c_str(), 100 * fit.max_rel_error_delayed);
}

void print_cold(const instrument::probe::ColdMessages& c, int reps) {
  std::printf("\ncold messages: the first MPI call after both ranks streamed N bytes (median of %d; clock offset "
              "rank 1 - rank 0 %+.3f us +- %.3f us, %s)\n",
              reps, us(c.clock_offset), us(c.clock_offset_bound),
              c.same_host ? "one host: one clock, not applied" : "two hosts: applied");
  std::printf("%12s %12s %9s %5s | %11s %11s | %11s %11s", "N bytes", "allreduce8", "skew", "kept", "recv small",
              "recv face", "send small", "send face");
  for (std::int64_t k : c.rendezvous_bytes)
    std::printf(" | %9lld send %9lld recv", static_cast<long long>(k), static_cast<long long>(k));
  std::printf("\n");
  std::printf("%12s %12s %9s %5s | %11s %11s | %11s %11s   (us; small %lld B, face %lld B)\n", "", "", "", "", "", "", "",
              "",
              static_cast<long long>(c.small_bytes), static_cast<long long>(c.face_bytes));
  for (const auto& p : c.points) {
    std::printf("%12lld %12.3f %9.1f %2d/%-2d | %11.3f %11.3f | %11.3f %11.3f",
                static_cast<long long>(p.working_set_bytes), us(p.allreduce8), us(p.arrival_skew), p.allreduce_kept,
                p.allreduce_reps, us(p.receive_small), us(p.receive_face), us(p.send_small), us(p.send_face));
    for (std::size_t j = 0; j < p.send_rendezvous.size(); ++j)
      std::printf(" | %14.3f %14.3f", us(p.send_rendezvous[j]), us(p.receive_rendezvous[j]));
    std::printf("\n");
  }
  if (!c.rendezvous_bytes.empty())
    std::printf("(rendezvous: the send timed from the receive's post, the receive from the send's start: the partner "
                "arrives 20 us late)\n");
}

void print_after_stream(const instrument::probe::AfterStreamMeasurement& a, int reps) {
  std::printf("\nthe first collective after a one-way stream: rank 0 sends M messages of %lld B to rank 1, %.0f us "
              "apart, then both enter an 8-byte allreduce, then another (median of up to %d; last entry to later exit); "
              "%s\n",
              static_cast<long long>(a.bytes), us(a.gap), reps,
              a.working_set > 0 ? ("the ranks' compute streams " + std::to_string(a.working_set) + " B").c_str()
                                : "the ranks spin between the messages");
  std::printf("%6s %14s %12s %12s %7s\n", "M", "interval (ms)", "first (us)", "second (us)", "kept");
  for (const auto& p : a.points)
    std::printf("%6d %14.3f %12.3f %12.3f %3d/%-3d\n", p.messages, p.interval * 1e3, us(p.allreduce8),
                us(p.second_allreduce8), p.kept, p.made);
}

void print_rendezvous(const std::optional<instrument::probe::RendezvousSendEvidence>& e,
                      const instrument::loggps::LogGpsParams& p) {
  namespace lg = instrument::loggps;
  if (!e) {
    std::printf("\nrendezvous: not measured (fewer than two sizes above S, or no growth between them); a send above S is taken to return "
                "after injecting (Ino's eq. 5)\n");
    return;
  }
  const bool after = e->rule == lg::SendReturns::after_transfer;
  std::printf("\nrendezvous, MPI_Send with its receiver already waiting (median):\n");
  const double dt_waiting = -1.0;  // the receive was called first
  for (const auto& [k, t] : {std::pair{e->a, e->send_a}, std::pair{e->b, e->send_b}})
    std::printf("  %9lld B  send %8.3f us  LogGPS %8.3f us  err %+6.1f%%\n", static_cast<long long>(k), us(t),
                us(lg::mpi_send_cost(p, k, dt_waiting)), 100 * instrument::relative_error(lg::mpi_send_cost(p, k, dt_waiting), t));
  std::printf("  growth %.3f us = %.2f x the one-way growth (RTT/2: %.3f us): the send returns %s\n",
              us(e->send_b - e->send_a), e->ratio, us(0.5 * (e->rtt_b - e->rtt_a)),
              after ? "after the transfer (loggps.rendezvous_send = after_transfer)"
                    : "after injecting, as Ino's eq. 5 (loggps.rendezvous_send = after_injection)");
  std::printf("  handshake beyond 2(o' + L), fitted from the round trips' jump at S: H = %.3f us\n", us(p.H));
}

// The keys this probe owns in the machine file (another probe's keys are kept).
void write_machine_file(const Options& o, const instrument::probe::ThresholdSearch& th,
                        const instrument::probe::LogGpsFit& fit, const instrument::probe::LogGpsFit& paper_only,
                        const instrument::probe::LogGpFit& gfit, const char* rndv_env,
                        const std::optional<instrument::probe::RendezvousSendEvidence>& evidence,
                        const std::optional<instrument::loggp::ColdCosts>& cold,
                        const std::string& cold_omitted,  // why not (no cold), or the points left out
                        const std::optional<instrument::loggp::AfterStream>& after_stream,
                        const std::string& after_stream_omitted, const std::vector<double>& round_trips) {
  const auto info = instrument::make_run_info("loggps-probe", MPI_COMM_SELF);
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
  mf.set("loggps.derivation", fit.derivation);
  if (!fit.rejected.empty()) mf.set("loggps.rejected", "ino-4.3 (unconstrained): " + fit.rejected);
  mf.set("loggps.max_rel_error_rtt", fit.max_rel_error_no_delay);
  mf.set("loggps.max_rel_error_rtt_delayed", fit.max_rel_error_delayed);
  mf.set("loggps.paper_only_max_rel_error_rtt", paper_only.max_rel_error_no_delay);
  if (evidence) {
    mf.comment("the evidence for loggps.rendezvous_send: MPI_Send with its receiver waiting (s)");
    mf.set("probe.rendezvous_send.a_bytes", evidence->a);
    mf.set("probe.rendezvous_send.a_seconds", evidence->send_a);
    mf.set("probe.rendezvous_send.b_bytes", evidence->b);
    mf.set("probe.rendezvous_send.b_seconds", evidence->send_b);
    mf.set("probe.rendezvous_send.growth_over_one_way", evidence->ratio);
  }
  instrument::loggp::write_params(gfit.params, mf);
  mf.set("loggp.derivation", gfit.derivation);
  if (gfit.ssv.solvable) {
    mf.comment("Sundaram-Stukel & Vernon §3.3: three equations on the band intercepts a1, a2, a3 (s)");
    mf.set("loggp.ssv.a1", gfit.ssv.a1);
    mf.set("loggp.ssv.a2", gfit.ssv.a2);
    mf.set("loggp.ssv.a3", gfit.ssv.a3);
    mf.set("loggp.ssv.L", gfit.ssv.L);
    mf.set("loggp.ssv.o_s", gfit.ssv.o_s);
    mf.set("loggp.ssv.o_l", gfit.ssv.o_l);
  }
  if (!gfit.rejected.empty()) mf.set("loggp.rejected", "ssv-3.3: " + gfit.rejected);
  mf.set("loggp.max_rel_error_rtt", gfit.max_rel_error);
  instrument::probe::write_cold_keys(cold, cold_omitted, after_stream, after_stream_omitted, mf);
  instrument::write_loggp_core_round_trip(round_trips, mf);
  // The text as a reader will parse it must pass the models' checks before it is written.
  const auto as_read = instrument::MachineFile::parse(mf.text(), o.out);
  (void)instrument::loggps::read_params(as_read);
  (void)instrument::loggp::read_params(as_read);
  (void)instrument::loggp::read_cold(as_read);
  (void)instrument::loggp::read_after_stream(as_read);
  if (const std::string misfit = instrument::probe::round_trip_fit_problem(as_read); !misfit.empty())
    throw std::runtime_error(misfit);
  mf.write(o.out);
}

// Without --out: this host's file in the per-user cache (machine_cache.hpp), where the apps
// look for it; loggps.machine in the working directory when there is no cache directory.
std::string out_path(const std::string& given) {
  if (!given.empty()) return given;
  const std::string cached = instrument::machine_cache::path_for_writing("loggps", 0);
  return cached.empty() ? "loggps.machine" : cached;
}

// One measurement and fit; rank 0 returns why the fit was refused ("" when the machine file
// was written), the other rank "".
std::string measure_fit_and_write(const Options& o, int rank) {
  const double t_start = now_seconds();
  // Where the host put the two CPUs, before and after (core_round_trip.hpp): the placement the
  // parameters are true of.
  std::vector<double> round_trips{instrument::measure_core_round_trip(MPI_COMM_WORLD)};

  Pair p{rank, 1 - rank, std::vector<char>(static_cast<std::size_t>(o.max_bytes), 'a'),
         std::vector<char>(static_cast<std::size_t>(o.max_bytes), 'b')};
  const auto sizes = geometric_sizes(o.max_bytes);
  instrument::probe::warm_up_pair(p, o.max_bytes);

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

  // 4: the rendezvous with its receiver on time, at the first size above S and about 8x it.
  std::vector<std::int64_t> above;
  for (std::int64_t k : sizes)
    if (k > th.S && (above.empty() || k <= 8 * above.front())) above.push_back(k);
  std::vector<double> rendezvous_sends;
  if (above.size() >= 2) {
    above = {above.front(), above.back()};
    rendezvous_sends = instrument::probe::median_sends_to_waiting_receiver(p, above, o.reps);
  }

  // 5: the first call after a working set, with messages the protocol sends eagerly.
  const std::int64_t eager = std::max<std::int64_t>(std::min(th.S, o.max_bytes), 1);  // and within the buffers
  // And messages sent by the rendezvous (above S), within the buffers.
  const int cold_reps = std::min(o.reps, kColdRepsMax);
  std::vector<std::int64_t> rendezvous_bytes;
  for (std::int64_t k : o.rendezvous_bytes)
    if (k > th.S && k <= o.max_bytes) rendezvous_bytes.push_back(k);
  const auto cold = instrument::probe::measure_cold_messages(p, o.working_sets, std::min<std::int64_t>(8, eager),
                                                             std::min<std::int64_t>(8192, eager), rendezvous_bytes,
                                                             cold_reps);
  const double t_cold = now_seconds();

  // 6: the first collective after a one-way stream.
  std::vector<instrument::probe::AfterStreamMeasurement> streams;
  for (std::int64_t ws : o.stream_working_sets)
    streams.push_back(instrument::probe::measure_after_stream(p, o.stream_messages, std::min(o.stream_bytes, o.max_bytes),
                                                              instrument::probe::kStreamGap, cold_reps, ws));
  const auto& stream = streams.front();
  round_trips.push_back(instrument::measure_core_round_trip(MPI_COMM_WORLD));
  const double t_stream = now_seconds();

  std::string error;
  if (rank == 0) {
    try {
      instrument::probe::LogGpsFitOptions measured_rule;
      std::optional<instrument::probe::RendezvousSendEvidence> evidence;
      if (!rendezvous_sends.empty()) {
        const auto rtt_at = [&](std::int64_t k) {
          for (const auto& d : rtt0)
            if (d.bytes == k) return d.seconds;
          return 0.0;
        };
        try {
          evidence = instrument::probe::rendezvous_send_rule(th.S, above[0], above[1], rendezvous_sends[0],
                                                             rendezvous_sends[1], rtt_at(above[0]), rtt_at(above[1]));
          measured_rule.send_returns = evidence->rule;
        } catch (const std::invalid_argument& e) {  // noise: the larger round trip was not longer
          std::printf("rendezvous rule not measured (%s): taken as Ino's eq. 5\n", e.what());
        }
      }
      const auto fit = instrument::probe::fit_loggps(rtt0, rttw, th.S, measured_rule);
      instrument::probe::LogGpsFitOptions paper_only;
      paper_only.max_gap_steps = 0;
      const auto paper = instrument::probe::fit_loggps(rtt0, rttw, th.S, paper_only);
      const std::int64_t rendezvous = th.first_waiting > 0 ? th.first_waiting : o.max_bytes + 1;
      const auto gfit = instrument::probe::fit_loggp(rtt0, rttw, rendezvous);
      const char* rndv_env = std::getenv("UCX_RNDV_THRESH");
      print_report(o, rtt0, rttw, w_used, th, late, fit, gfit, rndv_env);
      print_rendezvous(evidence, fit.params);
      print_cold(cold, cold_reps);
      if (cold.rendezvous_bytes.size() < o.rendezvous_bytes.size())
        std::printf("rendezvous sizes measured: %zu of %zu given (the others are at or below the eager limit S = %lld B "
                    "or above --max-bytes)\n",
                    cold.rendezvous_bytes.size(), o.rendezvous_bytes.size(), static_cast<long long>(th.S));
      for (const auto& st : streams) print_after_stream(st, cold_reps);
      const std::string stream_omitted = after_stream_problem(stream);
      std::string stream_dropped;
      const auto stream_costs = after_stream_costs(streams, stream_dropped);
      if (stream_omitted.empty() && !stream_dropped.empty())
        std::printf("WARNING: working sets left out of loggp.after_stream.* (a loaded host): %s\n", stream_dropped.c_str());
      if (!stream_omitted.empty())
        std::printf("WARNING: no loggp.after_stream.* keys written: %s (a loaded host); the models price the "
                    "first reduction without them (run the probe on an idle host)\n", stream_omitted.c_str());
      const std::string omitted = cold_problem(cold), dropped = cold_dropped(cold);
      if (!omitted.empty())
        std::printf("WARNING: no loggp.cold.* keys written: %s (a loaded host); the models use the warm terms (run "
                    "the probe on an idle host)\n", omitted.c_str());
      else if (!dropped.empty())
        std::printf("WARNING: working sets left out of loggp.cold.* (a loaded host): %s\n", dropped.c_str());
      std::printf("the paper's model alone (no gap steps) fits RTT(w=0) within %.1f%% at best "
                  "(%s; s = %lld B, L = %.4f us, o' = %.4f us, G_s = %.4f ns/B, G_l = %.4f ns/B)\n",
                  100 * paper.max_rel_error_no_delay, paper.derivation.c_str(), static_cast<long long>(paper.params.s),
                  us(paper.params.L), us(paper.params.o_prime), ns(paper.params.G_s), ns(paper.params.G_l));
      if (rtt0.front().seconds > 50e-6) {
        std::printf("WARNING: a 1-byte round trip took %.0f us: the node is oversubscribed (ranks are "
                    "descheduled), the fitted parameters describe the scheduler, not the network\n",
                    us(rtt0.front().seconds));
      }
      write_machine_file(o, th, fit, paper, gfit, rndv_env, evidence,
                         omitted.empty() ? std::optional(cold_costs(cold)) : std::nullopt,
                         omitted.empty() ? dropped : omitted,
                         stream_omitted.empty() ? std::optional(stream_costs) : std::nullopt,
                         stream_omitted.empty() ? stream_dropped : stream_omitted, round_trips);
      const double t_end = now_seconds();
      std::printf("\nwrote %s\nprobe time: %.2f s (round trips %.2f s, late-receiver sends %.2f s, cold messages %.2f s, "
                  "after a stream %.2f s, fit %.2f s)\n",
                  o.out.c_str(), t_end - t_start, t_rtt - t_start, t_late - t_rtt, t_cold - t_late, t_stream - t_cold,
                  t_end - t_stream);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  return error;
}

int probe_main(const Options& given) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    throw CollectiveError("needs exactly 2 ranks, got " + std::to_string(size) +
                          " (run: mpiexec -n 2 loggps-probe)");
  }
  Options o = given;  // rank 0 writes: only its o.out is used
  std::string problem;
  if (rank == 0) try {
      o.out = out_path(given.out);
      problem = instrument::MachineFile::output_problem(o.out);
    } catch (const instrument::InputError& e) {
      problem = e.what();
    }
  if (problem.empty()) try {  // the two message buffers, on every rank (each its own limit)
      instrument::require_memory(instrument::saturating_product({2, static_cast<std::uint64_t>(o.max_bytes)}),
                                 "command line", "--max-bytes", "two message buffers of --max-bytes");
      instrument::require_memory(instrument::saturating_product({instrument::probe::kStreamBuffers,
                                                                  static_cast<std::uint64_t>(o.working_sets.back())}) +
                                     2 * static_cast<std::uint64_t>(o.max_bytes),
                                 "command line", "--working-sets",
                                 std::to_string(instrument::probe::kStreamBuffers) +
                                     " buffers of the largest working set and the message buffers");
      instrument::require_memory(static_cast<std::uint64_t>(o.stream_working_sets.back()) +
                                     2 * static_cast<std::uint64_t>(o.max_bytes),
                                 "command line", "--stream-working-sets",
                                 "a buffer of the largest working set and the message buffers");
    } catch (const instrument::InputError& e) {
      problem = e.what();
    }
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, problem);
  // A loaded host (other jobs on these cores) can give round trips that no constrained fit
  // makes physical, or a fit far off its own round trips (probe::round_trip_fit_problem);
  // such a fit is refused and measured again, up to kTries times, as the apps' short probe
  // does (loggps_short_probe.cpp). Each try is a whole probe.
  constexpr int kTries = 3;
  std::string error;
  for (int attempt = 1; attempt <= kTries; ++attempt) {
    error = measure_fit_and_write(o, rank);
    int refused = error.empty() ? 0 : 1;
    MPI_Bcast(&refused, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!refused) break;
    if (rank == 0 && attempt < kTries) {
      std::printf("\nfit refused (%s): measuring again, try %d of %d\n", error.c_str(), attempt + 1, kTries);
      std::fflush(stdout);
    }
  }
  if (rank == 0 && !error.empty())
    error += " (too noisy a measurement " + std::to_string(kTries) + " times; nothing written)";
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, error);
  instrument::probe::add_pending_messages(o.pending_bytes, o.reps, o.out, rank);  // 7, into the file written
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("loggps-probe", "mpiexec -n 2 loggps-probe [options]");
  declare_options(table, o);
  return instrument::run_app(argc, argv, table, [&] { return probe_main(o); });
}
