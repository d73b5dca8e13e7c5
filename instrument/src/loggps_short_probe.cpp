// The apps' short LogGP/LogGPS probe: loggps-probe's measurement, reduced. See
// loggps_short_probe.hpp for what is reduced and why.
#include "instrument/loggps_short_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/core_round_trip.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggp_cold.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_cache.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/probe_cold.hpp"
#include "instrument/probe_cold_costs.hpp"
#include "instrument/probe_fit.hpp"
#include "instrument/probe_measure.hpp"
#include "instrument/run_results.hpp"

namespace instrument::probe {

namespace {

constexpr std::int64_t kMaxBytes = std::int64_t{1} << 18;
constexpr int kReps = 9;            // three interleaved rounds of three (median_round_trips)
constexpr int kLateTrials = 1;
constexpr int kTries = 3;
// The message costs under a working set (loggps-probe's experiments 5 and 6), reduced: the
// cold messages at five working sets instead of seven (the two bracketing a 1 MiB L2 kept,
// where sweep3d's blocks sit), the after-stream series spinning and at 4 and 16 MiB (not 1
// MiB), 9 repetitions instead of 15. Without them the sweep3d and tycho rows price a message
// after a kernel block at the ping-pong's warm cost. AMD EPYC Zen 4 guest (2026-12-05), sweep3d
// 1x2 input50 --mk 10 --mmi 3, medians: comm + sync -24.6% and reductions -85.0% on a
// warm-only file; with this probe, fresh each time, +1.0% and -29.8% (ten runs), against -1.1%
// and -32.2% with loggps-probe's, fresh each time, alternated (BENCHMARKS.md). With the
// after-stream series at 4 MiB alone (loggps-probe --quick's) the reductions read -45.3% in
// five runs: the first allreduce after a 16 MiB stream costs 2-3x what it does after 4 MiB,
// and sweep3d's 4.6 MB a rank sits between the two, where the reader interpolates.
const std::vector<std::int64_t> kColdWorkingSets{0, 512 << 10, 1 << 20, 2 << 20, 16 << 20};
const std::vector<std::int64_t> kStreamWorkingSets{0, 4 << 20, 16 << 20};
const std::vector<int> kStreamMessages{0, 5, 10, 20, 40, 80, 160, 320};
const std::vector<std::int64_t> kRendezvousBytes{12000, 24000};  // sweep3d input50's 1x2 face and twice it
constexpr std::int64_t kStreamBytes = 12000;
constexpr int kColdReps = 9;

std::vector<std::int64_t> sizes_by_four() {
  std::vector<std::int64_t> s;
  for (std::int64_t k = 1; k <= kMaxBytes; k *= 4) s.push_back(k);
  return s;
}

struct Measured {
  std::vector<RttSample> rtt0, rttw;
  ThresholdSearch threshold;
  std::vector<double> round_trips;  // the CPUs' placement before and after (core_round_trip.hpp)
};

Pair make_pair_buffers(int rank, MPI_Comm pair_comm, double deadline) {
  return Pair{rank, 1 - rank, std::vector<char>(static_cast<std::size_t>(kMaxBytes), 'a'),
              std::vector<char>(static_cast<std::size_t>(kMaxBytes), 'b'), pair_comm, deadline};
}

// loggps-probe's experiments 1-3 (loggps-probe.cpp's probe_main), on the pair's communicator.
Measured measure_pair(int rank, MPI_Comm pair_comm, double deadline) {
  Pair p = make_pair_buffers(rank, pair_comm, deadline);
  const std::vector<std::int64_t> sizes = sizes_by_four();
  Measured m;
  m.round_trips.push_back(measure_core_round_trip(pair_comm));
  warm_up_pair(p, kMaxBytes);
  std::vector<double> w(sizes.size(), 0.0);
  const std::vector<double> m0 = median_round_trips(p, sizes, w, kReps);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    m.rtt0.push_back({sizes[i], m0[i]});
    w[i] = std::max(20e-6, 3.0 * m0[i]);
  }
  const std::vector<double> mw = median_round_trips(p, sizes, w, kReps);
  for (std::size_t i = 0; i < sizes.size(); ++i) m.rttw.push_back({sizes[i], mw[i]});
  LateSend late;
  m.threshold = find_synchronous_threshold(
      sizes, [&](std::int64_t k) { return send_waits_for_late_receiver(p, k, late, kLateTrials); });
  m.round_trips.push_back(measure_core_round_trip(pair_comm));
  return m;
}

// loggps-probe's experiments 5 and 6 (its probe_main), with its sizes: eager messages within
// the eager limit S, rendezvous sizes above it. Valid on rank 0.
struct UnderWorkingSet {
  ColdMessages cold;
  std::vector<AfterStreamMeasurement> streams;  // the spinning series first
};
UnderWorkingSet measure_under_working_set(int rank, MPI_Comm pair_comm, std::int64_t S, double deadline) {
  Pair p = make_pair_buffers(rank, pair_comm, deadline);
  const std::int64_t eager = std::max<std::int64_t>(std::min(S, kMaxBytes), 1);
  std::vector<std::int64_t> rendezvous;
  for (std::int64_t k : kRendezvousBytes)
    if (k > S && k <= kMaxBytes) rendezvous.push_back(k);
  UnderWorkingSet u;
  u.cold = measure_cold_messages(p, kColdWorkingSets, std::min<std::int64_t>(8, eager),
                                 std::min<std::int64_t>(8192, eager), rendezvous, kColdReps);
  for (std::int64_t ws : kStreamWorkingSets)
    u.streams.push_back(measure_after_stream(p, kStreamMessages, kStreamBytes, kStreamGap, kColdReps, ws));
  return u;
}

// `mf` with the keys of `u` (write_cold_keys), checked as the models read them; a set the
// readers refuse is left out, and probe.cold_omitted says why, so that the cache keeps the
// file (machine_cache.cpp measures again a file with neither).
void add_under_working_set(const UnderWorkingSet& u, MachineFile& mf) {
  MachineFile with = mf;
  try {
    write_cold_keys(u.cold, u.streams, with);
    const MachineFile as_read = MachineFile::parse(with.text(), "the short probe's file");
    (void)loggp::read_cold(as_read);
    (void)loggp::read_after_stream(as_read);
    mf = std::move(with);
  } catch (const std::exception& e) {
    mf.set("probe.cold_omitted", std::string("the measurement's figures refused: ") + e.what());
  }
}

// loggps-probe's keys (its write_machine_file), less the evidence it alone measures.
MachineFile machine_file_of(const Measured& m, const std::string& program) {
  const LogGpsFit fit = fit_loggps(m.rtt0, m.rttw, m.threshold.S);
  const std::int64_t rendezvous = m.threshold.first_waiting > 0 ? m.threshold.first_waiting : kMaxBytes + 1;
  const LogGpFit gfit = fit_loggp(m.rtt0, m.rttw, rendezvous);
  const RunInfo info = make_run_info(program, MPI_COMM_SELF);
  MachineFile mf;
  mf.comment("written by " + program + "'s short probe (loggps-probe's loops and fits, reduced: "
             "instrument/loggps_short_probe.hpp); loggps-probe measures in full");
  mf.set("source", program + " short probe");
  mf.set("date", info.date);
  mf.set("host", info.host);
  mf.set("mpi_library", info.mpi_library);
  mf.set("probe.reps", static_cast<std::int64_t>(kReps));
  mf.set("probe.max_bytes", kMaxBytes);
  mf.set("probe.late_receiver_delay", kLateReceiverDelay);
  mf.set("probe.late_receiver_trials", static_cast<std::int64_t>(kLateTrials));
  mf.set("probe.first_waiting_bytes", m.threshold.first_waiting);
  loggps::write_params(fit.params, mf);
  mf.set("loggps.derivation", fit.derivation);
  if (!fit.rejected.empty()) mf.set("loggps.rejected", "ino-4.3 (unconstrained): " + fit.rejected);
  mf.set("loggps.max_rel_error_rtt", fit.max_rel_error_no_delay);
  mf.set("loggps.max_rel_error_rtt_delayed", fit.max_rel_error_delayed);
  loggp::write_params(gfit.params, mf);
  mf.set("loggp.derivation", gfit.derivation);
  if (!gfit.rejected.empty()) mf.set("loggp.rejected", "ssv-3.3: " + gfit.rejected);
  mf.set("loggp.max_rel_error_rtt", gfit.max_rel_error);
  write_loggp_core_round_trip(m.round_trips, mf);
  return mf;
}

}  // namespace

void measure_loggps_short(const std::string& path, const std::string& program, MPI_Comm comm, double limit) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm pair_comm = MPI_COMM_NULL;
  MPI_Comm_split(comm, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair_comm);
  const double deadline = now_seconds() + limit;  // rank 0's decides (check_deadline)
  // A loaded host (other jobs on these cores) can give round trips of milliseconds that no
  // constrained fit makes physical (a G above 1 us/B), or a fit far from its own round trips
  // (round_trip_fit_problem): such a fit is measured again, up to kTries times and within the
  // time limit, as bspprobe's short probe does; each try takes under a second idle. The
  // messages under a working set (about 4 s idle, much longer on a loaded host) are measured
  // once, after a fit is accepted.
  MachineFile mf;
  std::string refused;
  std::int64_t eager_limit = 0;  // S of the accepted fit (rank 0's)
  int verdict[2] = {0, 0};       // a fit accepted, the time limit passed (rank 0's, to every rank)
  for (int attempt = 0; attempt < kTries && !verdict[0] && !verdict[1]; ++attempt) {
    Measured m;
    int out_of_time = 0;
    try {
      if (pair_comm != MPI_COMM_NULL) m = measure_pair(rank, pair_comm, deadline);
    } catch (const ProbeOutOfTime&) {
      out_of_time = 1;  // on both ranks of the pair alike
    }
    int fitted = 0;
    if (rank == 0 && out_of_time)
      refused = "no fit the models accept within " + machine_cache::time_limit_text(limit) + "; nothing written";
    if (rank == 0 && !out_of_time) {
      try {
        mf = machine_file_of(m, program);
        eager_limit = m.threshold.S;
        // As loggps-probe: the text as a reader will parse it passes the models' checks.
        const MachineFile as_read = MachineFile::parse(mf.text(), path);
        (void)loggps::read_params(as_read);
        (void)loggp::read_params(as_read);
        refused = round_trip_fit_problem(as_read);
        fitted = refused.empty() ? 1 : 0;
      } catch (const std::exception& e) {
        refused = e.what();
      }
    }
    verdict[0] = fitted;
    verdict[1] = out_of_time;
    MPI_Bcast(verdict, 2, MPI_INT, 0, comm);  // the other ranks wait here, sending nothing
    if (verdict[0]) refused.clear();
    else if (rank == 0 && !verdict[1] && attempt + 1 == kTries)
      refused += " (too noisy a measurement " + std::to_string(kTries) + " times; nothing written)";
  }
  if (verdict[0]) {
    MPI_Bcast(&eager_limit, 1, MPI_INT64_T, 0, comm);
    UnderWorkingSet u;
    bool unfinished = false;
    try {
      if (pair_comm != MPI_COMM_NULL) u = measure_under_working_set(rank, pair_comm, eager_limit, deadline);
    } catch (const ProbeOutOfTime&) {
      unfinished = true;
    }
    if (rank == 0 && unfinished) {
      // Measured again once (machine_cache's check): a second unfinished probe at this path
      // says why not (probe.cold_omitted) and is kept, so that a host that stays loaded does
      // not pay the whole limit on every run.
      bool again = false;
      try {
        again = MachineFile::read(path).has("probe.cold_unfinished");
      } catch (const std::exception&) {
        again = false;  // no file there, or not one: the first try
      }
      const std::string why =
          "the messages after a working set were not finished within " + machine_cache::time_limit_text(limit);
      if (again) mf.set("probe.cold_omitted", why + ", twice: run loggps-probe idle");
      else mf.set("probe.cold_unfinished", why);
    } else if (rank == 0) {
      add_under_working_set(u, mf);
    }
  }
  if (pair_comm != MPI_COMM_NULL) MPI_Comm_free(&pair_comm);
  if (rank != 0) return;
  if (!refused.empty()) throw std::runtime_error(refused);
  mf.write(path);
}

}  // namespace instrument::probe
