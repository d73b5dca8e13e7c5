// A send with the peer's message waiting: the timed loop and the machine file's keys. See
// probe_pending.hpp.
#include "instrument/probe_pending.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_number.hpp"
#include "instrument/statistics.hpp"

namespace instrument::probe {

namespace {

constexpr int kToRank0 = 21, kToRank1 = 22, kTimes = 23;
constexpr int kMinKept = 3;

void spin_until(double t) {
  while (now_seconds() < t) {
  }
}

bool on_one_host(const Pair& p) {
  char name[MPI_MAX_PROCESSOR_NAME] = {}, peer_name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  MPI_Sendrecv(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, p.peer, kTimes, peer_name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
               p.peer, kTimes, p.comm, MPI_STATUS_IGNORE);
  return std::string(name) == std::string(peer_name);
}

// Rank 0's samples of one size: a case is (MPI_Bsend or MPI_Send, a message waiting or not).
struct Samples {
  std::vector<double> send[2][2];     // [buffered][pending]
  std::vector<double> receive[2];     // [pending], after MPI_Bsend (whose poll takes the message in)
};

}  // namespace

PendingMeasurement measure_pending_messages(Pair& p, const std::vector<std::int64_t>& sizes, int reps) {
  PendingMeasurement out;
  out.same_host = on_one_host(p);
  if (!out.same_host || sizes.empty()) return out;
  const std::int64_t largest = *std::max_element(sizes.begin(), sizes.end());
  // Each MPI_Bsend's segment is freed by a later one (when it finds the send complete): a few suffice.
  std::vector<char> attached(static_cast<std::size_t>(8 * (largest + MPI_BSEND_OVERHEAD)));
  MPI_Buffer_attach(attached.data(), static_cast<int>(attached.size()));

  std::vector<Samples> s(sizes.size());
  std::vector<int> kept_counts;
  auto once = [&](std::size_t i, bool buffered, bool pending) {
    const int k = static_cast<int>(sizes[i]);
    MPI_Barrier(p.comm);
    const double t = now_seconds() + kSettle;  // the agreed moment, from each rank's exit
    if (p.rank == 1) {
      double sent[2] = {0.0, 0.0};  // rank 1's send: its start and its return
      if (pending) {
        spin_until(t);
        sent[0] = now_seconds();
        MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kToRank0, p.comm);  // eager: in rank 0's queue on return
        sent[1] = now_seconds();
        MPI_Recv(p.in.data(), k, MPI_BYTE, p.peer, kToRank1, p.comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(p.in.data(), k, MPI_BYTE, p.peer, kToRank1, p.comm, MPI_STATUS_IGNORE);
        spin_until(t + 1.5 * kSettle);  // after rank 0's send has returned
        sent[0] = now_seconds();
        MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kToRank0, p.comm);
        sent[1] = now_seconds();
      }
      MPI_Send(sent, 2, MPI_DOUBLE, p.peer, kTimes, p.comm);
      return;
    }
    spin_until(t + kSettle);  // no MPI call since the barrier: a waiting message is not taken in
    const double t0 = now_seconds();
    if (buffered)
      MPI_Bsend(p.out.data(), k, MPI_BYTE, p.peer, kToRank1, p.comm);
    else
      MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kToRank1, p.comm);
    const double t1 = now_seconds();
    if (!pending) spin_until(t + 2.5 * kSettle);  // rank 1's message has arrived meanwhile
    const double t2 = now_seconds();
    MPI_Recv(p.in.data(), k, MPI_BYTE, p.peer, kToRank0, p.comm, MPI_STATUS_IGNORE);
    const double t3 = now_seconds();
    double sent[2] = {0.0, 0.0};
    MPI_Recv(sent, 2, MPI_DOUBLE, p.peer, kTimes, p.comm, MPI_STATUS_IGNORE);
    const bool as_intended = pending ? sent[1] < t0 : sent[0] > t1 && sent[1] < t2;
    if (!as_intended) return;
    s[i].send[buffered][pending].push_back(t1 - t0);
    if (buffered) s[i].receive[pending].push_back(t3 - t2);
  };
  for (int rep = 0; rep < reps; ++rep)  // interleaved: a burst of load hits every case
    for (std::size_t i = 0; i < sizes.size(); ++i)
      for (const bool buffered : {false, true})
        for (const bool pending : {false, true}) once(i, buffered, pending);
  out.made = reps;
  int detached_size = 0;
  void* detached = nullptr;
  MPI_Buffer_detach(&detached, &detached_size);
  if (p.rank != 0) return out;

  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const Samples& x = s[i];
    int fewest = reps;
    for (const auto& by_buffered : x.send)
      for (const auto& v : by_buffered) fewest = std::min(fewest, static_cast<int>(v.size()));
    out.kept.push_back(fewest);
    loggp::PendingPoint pt;
    pt.bytes = sizes[i];
    if (fewest > 0) {
      pt.send_plain = median(x.send[0][0]);
      pt.send_pending = median(x.send[0][1]);
      pt.bsend_plain = median(x.send[1][0]);
      pt.bsend_pending = median(x.send[1][1]);
      pt.receive_plain = median(x.receive[0]);
      pt.receive_pending = median(x.receive[1]);
    }
    out.points.push_back(pt);
  }
  return out;
}

std::vector<std::int64_t> parse_pending_sizes(const std::string& option, const std::string& text) {
  // At most 2^24 B: eager sizes are kB, and the attached buffer (8 messages) must fit an int.
  return increasing_whole_options(option, text, 1, std::int64_t{1} << 24, 16, "B");
}

namespace {

// What rank 0 prints and keeps: the sizes with enough repetitions as intended, or why none.
std::string report(const PendingMeasurement& m, int reps, loggp::PendingCosts& kept) {
  if (!m.same_host) return "the ranks are on different hosts (no common clock tells that a message had arrived)";
  const int wanted = std::max(kMinKept, reps / 4);
  std::printf("\npending messages: a send with the peer's message waiting (probe_pending.hpp; medians of the "
              "repetitions as intended, of %d a case)\n",
              m.made);
  std::string dropped;
  for (std::size_t i = 0; i < m.points.size(); ++i) {
    const loggp::PendingPoint& p = m.points[i];
    std::printf("  %7lld B  MPI_Send %7.3f -> %7.3f us  MPI_Bsend %7.3f -> %7.3f us  receive %7.3f -> %7.3f us"
                "  (kept >= %d)\n",
                static_cast<long long>(p.bytes), p.send_plain * 1e6, p.send_pending * 1e6, p.bsend_plain * 1e6,
                p.bsend_pending * 1e6, p.receive_plain * 1e6, p.receive_pending * 1e6, m.kept[i]);
    if (m.kept[i] >= wanted)
      kept.points.push_back(p);
    else
      dropped += (dropped.empty() ? "" : ", ") + std::to_string(p.bytes) + " B (" + std::to_string(m.kept[i]) +
                 " as intended)";
  }
  std::printf("  (plain -> pending: nothing waiting -> the peer's message waiting, not received; the receive "
              "after each)\n");
  if (kept.points.empty()) return "no size had " + std::to_string(wanted) + " repetitions as intended: " + dropped;
  if (!dropped.empty()) std::printf("WARNING: sizes left out of loggp.pending.* (a loaded host): %s\n", dropped.c_str());
  return "";
}

}  // namespace

void add_pending_messages(const std::vector<std::int64_t>& sizes, int reps, const std::string& out, int rank) {
  // Rank 0 reads S from the file just written; both ranks then measure the sizes at or below it.
  std::vector<std::int64_t> eager;
  std::string error;
  std::int64_t largest_eager = 0;
  if (rank == 0) try {
      largest_eager = MachineFile::read(out).require_bytes("loggps.S");
      for (std::int64_t k : sizes)
        if (k <= largest_eager) eager.push_back(k);
    } catch (const std::exception& e) {
      error = e.what();
    }
  throw_if_any_rank_failed(MPI_COMM_WORLD, error);
  int n = static_cast<int>(eager.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  eager.resize(static_cast<std::size_t>(n));
  MPI_Bcast(eager.data(), n, MPI_INT64_T, 0, MPI_COMM_WORLD);

  const int pending_reps = std::max(25, std::min(4 * reps, 61));
  const std::int64_t buffer = eager.empty() ? 1 : eager.back();
  Pair p{rank, 1 - rank, std::vector<char>(static_cast<std::size_t>(buffer), 'a'),
         std::vector<char>(static_cast<std::size_t>(buffer), 'b')};
  const double t_start = now_seconds();
  const PendingMeasurement m = measure_pending_messages(p, eager, pending_reps);
  if (rank == 0) try {
      loggp::PendingCosts kept;
      std::string omitted = eager.empty() ? "no size of --pending-bytes at or below loggps.S = " +
                                                std::to_string(largest_eager) + " B (the experiment times eager sends)"
                                          : report(m, pending_reps, kept);
      MachineFile mf = MachineFile::read_to_merge(out);
      mf.erase_prefix("loggp.pending.");
      mf.erase_prefix("probe.pending_omitted");
      if (omitted.empty())
        loggp::write_pending(kept, mf);
      else {
        std::printf("WARNING: no loggp.pending.* keys written: %s; the models price every send as if nothing were "
                    "waiting\n", omitted.c_str());
        mf.set("probe.pending_omitted", omitted);
      }
      (void)loggp::read_pending(MachineFile::parse(mf.text(), out));  // as a reader will see it
      mf.write(out);
      std::printf("pending messages: %.2f s; wrote %s\n", now_seconds() - t_start, out.c_str());
      std::fflush(stdout);
    } catch (const std::exception& e) {
      // Experiments 1-6 published the file already: it goes, rather than stay without 7's keys
      // and be taken for an older probe's file (never a partial output file).
      std::remove(out.c_str());
      error = std::string(e.what()) + " (" + out + " removed)";
    }
  throw_if_any_rank_failed(MPI_COMM_WORLD, error);
}

}  // namespace instrument::probe
