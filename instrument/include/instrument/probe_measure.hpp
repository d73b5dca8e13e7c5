// probe_measure: the timed MPI loops of loggps-probe, between ranks 0 and 1 of
// Pair::comm, MPI_COMM_WORLD unless set (both call every function; results are valid on
// rank 0). The apps' short probe (loggps_short_probe.hpp) sets it to ranks 0 and 1 alone.
//
// Why raw MPI and not instrument::Comm: these loops calibrate the models that Comm's numbers
// are compared with. A 1-byte round trip here takes under a microsecond; Comm adds two clock
// reads and per-peer, per-size-class bookkeeping to every call, which would be measured as
// part of o'. So the loops call MPI directly with one clock read at each end
// (instrument::now_seconds, the suite's clock), and the Recorder is not used either.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace instrument::probe {

// Eager sends return in microseconds, waiting ones after at least this (seconds).
constexpr double kLateReceiverDelay = 0.020;

struct Pair {
  int rank = 0;
  int peer = 1;
  std::vector<char> out, in;  // message buffers, at least the largest size
  MPI_Comm comm = MPI_COMM_WORLD;  // of two ranks: `rank` and `peer` are ranks of it
  // A wall-clock limit (now_seconds(); 0: none), set on both ranks or on neither: past it on
  // rank 0's clock the loops below stop, on both ranks at the same point (check_deadline).
  double deadline = 0.0;
};

// Thrown on both ranks of a Pair when rank 0 is past its deadline.
struct ProbeOutOfTime : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Between two measurements of a loop: where p.deadline is set, rank 0 says whether it has
// passed, and both ranks throw ProbeOutOfTime if so. The apps' short probe has a budget (a
// host loaded by other jobs makes each of its thousands of messages cost a scheduler slice:
// minutes, not seconds); loggps-probe, run by hand, has none.
void check_deadline(const Pair& p);

// Busy computation of (at least) w seconds, like the dummy iteration of §4.3; returns the
// time it really took (a preemption during the spin then counts as w, not as communication).
double compute_for(double w);

// One round trip of k bytes. Rank 0: send, compute w, receive (the RTT program of Fig. 3);
// rank 1: receive, send. Returns RTT - (actual w) on rank 0.
double round_trip(Pair& p, std::int64_t k, double w);

// Untimed messages until the MPI library's eager buffers between the pair have all been
// written once (suite_transport::warm_up_eager_buffers, instrument/transport/): without it
// the first ~64 round trips of a fresh pair took 20-80 us against 1.3-2.7 us after, at any
// size, on the Firecracker/PVM guests of BENCHMARKS.md, and the apps' short probe, 9 round
// trips a size, measured 1 and 4 KiB at 36-58 us and fitted o = 1 ns with its round trips off
// by 80%. Messages up to max_bytes.
void warm_up_pair(Pair& p, std::int64_t max_bytes);

// Median of about `reps` round trips per size (w[i] for sizes[i]), interleaved over sizes.
std::vector<double> median_round_trips(Pair& p, const std::vector<std::int64_t>& sizes,
                                       const std::vector<double>& w, int reps);

// Did MPI_Send of k bytes wait for a receiver that posted kLateReceiverDelay late? Median of
// `trials` (three: loggps-probe; one: the short probe, each trial costs the delay) against
// half the delay: the contrast (us vs 20 ms) makes this robust to noise. Both ranks return
// rank 0's verdict (broadcast), so they walk the same search.
struct LateSend {
  std::vector<std::int64_t> sizes;
  std::vector<double> seconds;  // median send time (rank 0)
};
bool send_waits_for_late_receiver(Pair& p, std::int64_t k, LateSend& log, int trials = 3);

// Median time of MPI_Send of each size on rank 0 while rank 1 already waits in MPI_Recv
// (rank 0 spins 20 us after a barrier first), about `reps` per size, interleaved over sizes.
// Above S this is the rendezvous a blocking send pays with its receiver on time: how it grows
// with k tells when such a send returns (loggps.hpp, extension 2).
std::vector<double> median_sends_to_waiting_receiver(Pair& p, const std::vector<std::int64_t>& sizes,
                                                     int reps);

}  // namespace instrument::probe
