// probe_pending: a send call that finds the peer's message waiting, the seventh experiment of
// loggps-probe (the loggp.pending.* keys, loggp_pending.hpp).
//
// Issue 39 (AMD EPYC Zen 5, 2 vCPUs, MPICH 4.0.2 ch4, intra-node shared memory): in tycho at 2
// ranks an eager MPI_Bsend of ~500 B costs a median 1.0-1.26 us when the peer's message has
// already arrived and not yet been received, against 0.37-0.57 us when nothing is waiting; the
// receive that follows is then cheaper. The send's progress poll copies the waiting message in:
// the receiver's work, done inside the send call. The ping-pong behind LogGP's o never has a
// message waiting, so this measures it:
//   pending  rank 1 sends a message of k bytes to rank 0 at an agreed moment T; rank 0, making
//            no MPI call meanwhile, waits until T + kSettle (the message is in its queue, not
//            received), times its send of k bytes to rank 1, then the receive of the waiting one;
//   plain    rank 0 times its send of k bytes at T + kSettle with nothing waiting; rank 1 sends
//            its k bytes once it has received that, and rank 0 times the receive at
//            T + 2.5 kSettle (the message arrived after the send and nothing took it in).
// Each with MPI_Send and with MPI_Bsend (an attached buffer), the four interleaved, repeated;
// the receives are kept after MPI_Bsend (tycho's call; its poll is what takes the message in:
// MPI_Send's pending time hardly moved in the first runs, 0.33-0.43 us against 0.33-0.38).
// The ranks agree on T from one clock (steady_clock, one host); afterwards rank 1's send times
// tell whether the repetition was as intended (pending: its send had returned before rank 0's
// began; plain: it began after rank 0's send returned and returned before the receive began).
// Only those are kept: a descheduled rank (a loaded host) measures the scheduler.
// Across hosts there is no common clock, and the experiment is not made (the caller says so).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "instrument/loggp_pending.hpp"
#include "instrument/probe_measure.hpp"

namespace instrument::probe {

// Rank 0's send comes this long after rank 1's (pending) or the agreed moment (seconds).
constexpr double kSettle = 10e-6;

struct PendingMeasurement {
  bool same_host = true;
  std::vector<loggp::PendingPoint> points;  // one a size, medians of the kept repetitions (rank 0)
  std::vector<int> kept;                    // a size: the fewest kept of its four cases
  int made = 0;                             // repetitions made of each case
};

// Both ranks call it with the same arguments; the result is valid on rank 0. The sizes must be
// eager (at most the measured S: a send that waited for its receiver is another thing) and p.out
// and p.in hold the largest. MPI_Bsend's buffer is attached here and detached before returning.
PendingMeasurement measure_pending_messages(Pair& p, const std::vector<std::int64_t>& sizes, int reps);

// "64,512": whole numbers of bytes in [1, 2^24], increasing, at most 16 (loggps-probe's
// --pending-bytes); InputError("command line", option, what) otherwise.
std::vector<std::int64_t> parse_pending_sizes(const std::string& option, const std::string& text);

// The default sizes: a face message of a few records up to the cold experiment's face size.
inline std::vector<std::int64_t> default_pending_sizes() { return {64, 512, 2048, 8192}; }

// loggps-probe's experiment 7, made after it wrote `out` (both ranks call it, `out` is read on
// rank 0): the sizes at or below the file's loggps.S are measured with max(25, min(4 reps, 61))
// repetitions of each case, the report printed and the loggp.pending.* keys merged into the
// file (or probe.pending_omitted with the reason: no eager size, another host, a loaded host).
// Errors are thrown on every rank (throw_if_any_rank_failed).
void add_pending_messages(const std::vector<std::int64_t>& sizes, int reps, const std::string& out, int rank);

}  // namespace instrument::probe
