// probe_cold: message costs under an application's working set, the fifth experiment of
// loggps-probe. The ping-pong of probe_measure.hpp times messages back to back, with the
// MPI library's state, the buffers and the page tables in the caches. An application calls
// MPI after a kernel block that streamed over its arrays: the first call after it finds
// those cold. This measures that first call after both ranks streamed N bytes (read and
// write, 8-byte words, as a kernel sweeping its arrays does), for each working set N:
//   allreduce  an 8-byte MPI_Allreduce(SUM) whose ranks arrive about kLateArrival apart,
//              timed as the measured critical path times a collective (critical_path.hpp):
//              from the last arrival's entry to the later exit; only the repetitions where
//              the ranks did arrive so (a descheduled rank arrives milliseconds late),
//              repeated (up to max(reps, 10) more) until half of them, and at least
//              kMinAsIntended, did;
//   receive    a blocking MPI_Recv of a message sent before the streaming (already there:
//              the cold receive overhead), at a small and at a face size;
//   send       a blocking MPI_Send right after the streaming to a receive posted before it;
//   rendezvous a message above the eager limit (the protocol's handshake) at each of the
//              rendezvous sizes, sent by a blocking MPI_Send and received by a blocking
//              MPI_Recv, both right after the streaming, timed as the measured critical path
//              charges a call that waited for its partner (critical_path.hpp: from the
//              partner's start to the call's return, the message's own cost once both sides
//              were there): the send with its receiver kLateArrival late, from the receive's
//              post; the receive with its sender kLateArrival late, from the send's start.
//              The sender writes its message right before the send (a sweep's outflow copies
//              the face into its send buffer then), so only the receiver's buffer is cold.
//              A wavefront's face message is this call (issue 39: sweep3d's 12000 B faces).
// N = 0 (no streaming) is the warm reference measured the same way.
//
// The allreduce compares times of two ranks. They are read with now_seconds()
// (steady_clock: one time base on a node). The offset between the ranks' clocks is measured
// with round trips (rank 1 reads its clock between rank 0's two reads; `clock_offset_bound`
// is half the shortest round trip, the uncertainty left): on one host it checks the common
// clock (~0) and is not applied; across hosts rank 1's times are corrected by it. Raw MPI and no Recorder, for the reason probe_measure.hpp gives.
#pragma once
#include <cstdint>
#include <vector>

#include "instrument/probe_measure.hpp"

namespace instrument::probe {

// The later rank enters the allreduce this long after the other (seconds).
constexpr double kLateArrival = 20e-6;
constexpr int kMinAsIntended = 3;

// Each rank streams from this many buffers, each its own mapping, repetition r from buffer
// r % kStreamBuffers, and the medians are over all of them: one buffer's pages are one draw
// of a process's memory placement, whose speed varies from run to run on this VM (identical
// pinned application runs vary 0.19-0.32 s). Issue 39 (AMD EPYC Zen 5, 2 vCPUs, idle; five
// back-to-back probe runs, medians of 15 each): with one buffer the 12000 B rendezvous after
// 2 MiB streamed gave 6.1-11.3 us send, 5.4-10.5 us receive, and a run's 24000 B figure could
// come out below its 12000 B one; with four (and the 512 KiB, 1 MiB working sets before it)
// 4.3-6.3 and 4.6-6.5 us. Four runs of each variant, alternated: send 6.0-9.6 us with one
// buffer, 5.5-7.4 with four; with the 512 KiB and 1 MiB sets also measured (why they lower
// the 2 MiB figure is not known) 4.7-6.8 and 4.7-6.1. What is left is about the spread of
// the warm reference (N = 0: 2.9-4.6 us): the whole run is faster or slower. (Measured with
// the sizes interleaved a repetition at a time; they are now measured kRepsPerVisit at a time:
// measure_cold_messages says why.)
constexpr int kStreamBuffers = 4;

// Repetitions of one working set measured in a row before the next size (probe_cold.cpp,
// measure_cold_messages, says why).
constexpr int kRepsPerVisit = 8;

struct ColdPoint {
  std::int64_t working_set_bytes = 0;
  double allreduce8 = 0.0;     // seconds, medians over the repetitions (rank 0)
  double receive_small = 0.0;
  double receive_face = 0.0;
  double send_small = 0.0;
  double send_face = 0.0;
  std::vector<double> send_rendezvous, receive_rendezvous;  // one a rendezvous size
  double arrival_skew = 0.0;   // median entry(1) - entry(0) of the allreduce, for the report
  int allreduce_kept = 0;      // repetitions whose rank 1 arrived 0.5 to 2 x kLateArrival late
  int allreduce_reps = 0;      // (the median is over these; 0 s when none) of all made
};

struct ColdMessages {
  std::int64_t small_bytes = 8, face_bytes = 8192;
  std::vector<std::int64_t> rendezvous_bytes;  // the sizes sent by the rendezvous
  double clock_offset = 0.0;        // rank 1's clock minus rank 0's (seconds)
  double clock_offset_bound = 0.0;  // its uncertainty, half the shortest round trip
  bool same_host = true;            // then the offset is not applied (one clock), only reported
  std::vector<ColdPoint> points;    // in the order of the sizes given
};

// Both ranks of p call it with the same arguments (each holds kStreamBuffers buffers of the
// largest working set); the result is valid on rank 0. A point
// with fewer than kMinAsIntended allreduces as intended is not a measurement of the call
// (the caller leaves the cold keys out and says why). Each
// working set is streamed once per measurement (5 a repetition, and 2 a rendezvous size); the face message must be
// eager (at most the measured S; the caller clamps it), so that a receive finds it there and
// a send does not wait for its receiver. The rendezvous sizes must be above the measured S
// (the caller passes only those); p.out and p.in hold at least face_bytes and each of them.
//
// Why the probe has no "after a compute gap" experiment for point-to-point calls (issue 39,
// H10's report; AMD EPYC Zen 5, 2 vCPUs, MPICH 4.0.2 ch4 POSIX shared memory; 2 ranks, medians
// of 400, gaps interleaved): a rank that spins g without touching memory, then makes an eager
// send call or receives a message already there, pays within 0.15 us of back to back up to g =
// 70 us (8 B to 1500 B, MPI_Send/Recv and MPI_Bsend/Iprobe+Recv); +0.05-0.3 us at 150 us,
// +0.1-0.5 us at 300 us. That is sweep3d's gap (~70 us) and tycho's (17-155 us a step): not
// what their comm rows miss. What does grow is a rendezvous message after a kernel block
// streamed its working set: 12000 B (sweep3d's face, above S = 8255) takes 3.4-3.8 us from the
// receive's post back to back, 3.5-4.0 after spinning 79 us, 4.8-5.1 after both ranks streamed
// 1 MB (read+write, 56 us). The face figures above are clamped to eager sizes, so they do not
// see that: the rendezvous figures do.
ColdMessages measure_cold_messages(Pair& p, const std::vector<std::int64_t>& working_sets,
                                   std::int64_t small_bytes, std::int64_t face_bytes,
                                   const std::vector<std::int64_t>& rendezvous_bytes, int reps);

// The first collective after a one-way message stream, the pattern of a wavefront sweep's
// end: rank 0 computes `gap` and sends a `bytes` message to rank 1, `messages` times (rank 1
// receives each and computes), then both enter an 8-byte MPI_Allreduce (rank 1 last, as the
// stream's receiver is) and at once a second one: the sweep's own pair, an integer sum
// (MPI_LONG_LONG) then a maximum (MPI_DOUBLE), as sweep3d's source iteration reduces its
// fixups and its flux error (a pair of double sums costs ~1.4x less: each operation's code
// goes cold on its own). Timed as the measured critical path times a collective: from the
// last arrival's entry to the later exit. Each repetition starts with a barrier and the same
// pair, the previous collectives; `interval` is the time from their exit to the first
// allreduce's entry on rank 0.
//
// What the cost depends on (issue 39; MPICH 4.0.2 ch4:ucx, whose intra-node messages go
// through MPICH's own POSIX shared memory, not UCX: UCX_TLS changes nothing, and
// MPIR_CVAR_NOLOCAL=1, sending them through UCX, roughly halves the effect; 2 ranks on a
// 2-vCPU AMD EPYC KVM guest; medians of 31-41 repetitions, interleaved):
//   - the time since the previous collective, not the messages: 20 messages 7 us apart
//     (0.14 ms) cost 1.4-1.9 us, the same 20 messages 70 us apart (1.4 ms) 8-14 us, and 4
//     messages 700 us apart (2.8 ms) 15-24 us; the same intervals with no message at all
//     (both ranks computing or spinning) cost the same: 1.5, 5, 8-10, 15-20 us;
//   - neither a message back from rank 1, nor MPI_Iprobe calls on either rank before the
//     allreduce, nor the arrival skew (10-150 us) changes it; the second allreduce costs
//     ~1 us again; a barrier pays it too, a user-level MPI_Sendrecv about a third of it;
//   - the time is spent between the later rank's entry and the earlier rank's seeing its
//     message: the later rank is in the call 5-7 us, the earlier exits 4-5 us after it came;
//   - an allreduce on a duplicate of the communicator every 0.5 ms during the interval keeps
//     it at ~5 us (no interval: 1.8 us; 1.4 ms: 8 us; 5.6 ms: 22 us without it); a user
//     MPI_Sendrecv every 0.5 ms does not (18 us at 5.6 ms).
// So it is the collective path's code and data (shared by communicators, not by
// point-to-point calls) going cold in the caches with time, not the message stream's MPI
// state: no credit, queue or request of the stream is involved, and the probe's spin touches
// no memory, so the eviction is other work on the host's shared caches (a single process
// writing 64 pages it wrote T ago takes 4 us at T = 0 and 7 us at T = 2 ms).
// An application's own compute evicts it too, and on a PVM guest (Firecracker, shadow paging,
// no PCID, AMD EPYC Zen 5, 2 vCPUs; issue 39, 2026-12-02) that is most of the cost: ranks that
// stream a working set during the interval, as a sweep's kernel blocks do, pay 2-3x what
// spinning ranks pay (7 ms: 2.8-3.0 us spinning, 7.5 us streaming 1 MiB, 8.9 us 4.6 MB;
// 2 ms: 1.6 / 6.0 / 6.6 us; medians of 25, interleaved, ranks SCHED_FIFO on a host loaded by
// builds), and sweep3d 1x2 input50's first reduction costs 9-12 us on its critical path,
// where the spinning probe gave 2.6 us. Neither a syscall just before the collective (+0.5 us)
// nor a 150 us spin without memory between the stream and the collective changes that, and
// an extra collective right before takes it (the timed one then costs 1.9 us). So the probe
// measures the pattern as the application has it, at working sets (the gaps' compute streams
// a buffer of that size, round and round), and the reader (loggp_cold.hpp) reads its points
// by the interval and the rank's working set. Both ranks call it alike; valid on rank 0. p.out and
// p.in hold at least `bytes`. A point with fewer than kMinAsIntended repetitions with rank 1
// arriving after rank 0 (and within gap + 1 ms of it) has kept = 0.
struct AfterStreamPoint {
  int messages = 0;
  double interval = 0.0;                        // seconds, median
  double allreduce8 = 0.0, second_allreduce8 = 0.0;  // seconds, medians of the kept repetitions
  int kept = 0, made = 0;
};

struct AfterStreamMeasurement {
  std::int64_t bytes = 0;
  double gap = 0.0;
  std::int64_t working_set = 0;  // bytes each rank streamed in its compute; 0: it spun
  std::vector<AfterStreamPoint> points;
};

// The compute between two messages of the stream (a sweep's block time at input50's size).
constexpr double kStreamGap = 70e-6;

// working_set: what each rank's compute (the gaps, the last block) does: 0 spins touching no
// memory; N > 0 reads and writes an N-byte buffer in order, round and round, as a kernel
// going through a rank's arrays block by block does (see above: on a PVM guest that is most
// of the cost).
AfterStreamMeasurement measure_after_stream(Pair& p, const std::vector<int>& message_counts, std::int64_t bytes,
                                            double gap, int reps, std::int64_t working_set = 0);

}  // namespace instrument::probe
