// The timed MPI loops of loggps-probe. See probe_measure.hpp.
#include "instrument/probe_measure.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "instrument/clock.hpp"
#include "instrument/statistics.hpp"
#include "eager_warm_up.hpp"

namespace instrument::probe {

namespace {
constexpr int kTag = 7;
}  // namespace

void warm_up_pair(Pair& p, std::int64_t max_bytes) {
  MPI_Barrier(p.comm);
  suite_transport::warm_up_eager_buffers(p.comm, kTag, 0, static_cast<long>(max_bytes));
}

// Busy computation of (at least) w seconds, like the dummy iteration of §4.3; returns the
// time it really took (a preemption during the spin then counts as w, not as communication).
double compute_for(double w) {
  const double t0 = now_seconds();
  double t = t0;
  while (t - t0 < w) t = now_seconds();
  return t - t0;
}

// One round trip of k bytes. Rank 0: send, compute w, receive (the RTT program of Fig. 3);
// rank 1: receive, send. Returns RTT - (actual w) on rank 0.
double round_trip(Pair& p, std::int64_t k, double w) {
  const int n = static_cast<int>(k);
  if (p.rank == 0) {
    const double t0 = now_seconds();
    MPI_Send(p.out.data(), n, MPI_BYTE, p.peer, kTag, p.comm);
    const double spent = w > 0.0 ? compute_for(w) : 0.0;
    MPI_Recv(p.in.data(), n, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    return now_seconds() - t0 - spent;
  }
  MPI_Recv(p.in.data(), n, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
  MPI_Send(p.out.data(), n, MPI_BYTE, p.peer, kTag, p.comm);
  return 0.0;
}

void check_deadline(const Pair& p) {
  if (p.deadline <= 0.0) return;
  int passed = p.rank == 0 && now_seconds() > p.deadline ? 1 : 0;
  MPI_Bcast(&passed, 1, MPI_INT, 0, p.comm);
  if (passed) throw ProbeOutOfTime("the probe passed its time limit");
}

// Median round trip per size. The repetitions are INTERLEAVED: each round visits every size
// with one untimed round trip and then a batch of timed ones. On a node shared with other
// work, load comes in bursts of tens of milliseconds; consecutive repetitions of one size
// would all fall into one burst and move its median, interleaved ones spread every burst over
// all sizes. The untimed round trips absorb the cost of switching protocol (and the caches)
// from the previous size, which ping-pong of one size never pays.
std::vector<double> median_round_trips(Pair& p, const std::vector<std::int64_t>& sizes,
                                       const std::vector<double>& w, int reps) {
  constexpr int kBatch = 3;
  const int rounds = (reps + kBatch - 1) / kBatch;
  std::vector<std::vector<double>> t(sizes.size());
  MPI_Barrier(p.comm);
  for (int round = 0; round < rounds; ++round) {
    check_deadline(p);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const int warm_up = sizes[i] <= (64 << 10) ? 3 : 1;  // after a large one, caches are cold
      for (int u = 0; u < warm_up; ++u) round_trip(p, sizes[i], w[i]);
      for (int b = 0; b < kBatch; ++b) t[i].push_back(round_trip(p, sizes[i], w[i]));
    }
  }
  std::vector<double> m(sizes.size(), 0.0);
  if (p.rank == 0)
    for (std::size_t i = 0; i < sizes.size(); ++i) m[i] = median(t[i]);
  return m;
}

bool send_waits_for_late_receiver(Pair& p, std::int64_t k, LateSend& log, int trials) {
  const int n = static_cast<int>(k);
  std::vector<double> t;
  check_deadline(p);
  for (int trial = 0; trial < trials; ++trial) {
    MPI_Barrier(p.comm);
    if (p.rank == 0) {
      const double t0 = now_seconds();
      MPI_Send(p.out.data(), n, MPI_BYTE, p.peer, kTag, p.comm);
      t.push_back(now_seconds() - t0);
    } else {
      // Sleeping, not spinning: the receiver must not call MPI (no progress) before it
      // posts, and a sleeping rank leaves the core to the sender on a 2-core node.
      std::this_thread::sleep_for(std::chrono::duration<double>(kLateReceiverDelay));
      MPI_Recv(p.in.data(), n, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    }
  }
  int waited = 0;
  if (p.rank == 0) {
    const double m = median(t);
    waited = m > 0.5 * kLateReceiverDelay ? 1 : 0;
    log.sizes.push_back(k);
    log.seconds.push_back(m);
  }
  MPI_Bcast(&waited, 1, MPI_INT, 0, p.comm);
  return waited != 0;
}

std::vector<double> median_sends_to_waiting_receiver(Pair& p, const std::vector<std::int64_t>& sizes,
                                                     int reps) {
  std::vector<std::vector<double>> t(sizes.size());
  for (int rep = 0; rep < reps; ++rep) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const int n = static_cast<int>(sizes[i]);
      MPI_Barrier(p.comm);
      if (p.rank == 0) {
        compute_for(20e-6);  // the receiver is in MPI_Recv by now
        const double t0 = now_seconds();
        MPI_Send(p.out.data(), n, MPI_BYTE, p.peer, kTag, p.comm);
        t[i].push_back(now_seconds() - t0);
      } else {
        MPI_Recv(p.in.data(), n, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
      }
    }
  }
  std::vector<double> m(sizes.size(), 0.0);
  if (p.rank == 0)
    for (std::size_t i = 0; i < sizes.size(); ++i) m[i] = median(t[i]);
  return m;
}

}  // namespace instrument::probe
