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
//   send       a blocking MPI_Send right after the streaming to a receive posted before it.
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

struct ColdPoint {
  std::int64_t working_set_bytes = 0;
  double allreduce8 = 0.0;     // seconds, medians over the repetitions (rank 0)
  double receive_small = 0.0;
  double receive_face = 0.0;
  double send_small = 0.0;
  double send_face = 0.0;
  double arrival_skew = 0.0;   // median entry(1) - entry(0) of the allreduce, for the report
  int allreduce_kept = 0;      // repetitions whose rank 1 arrived 0.5 to 2 x kLateArrival late
  int allreduce_reps = 0;      // (the median is over these; 0 s when none) of all made
};

struct ColdMessages {
  std::int64_t small_bytes = 8, face_bytes = 8192;
  double clock_offset = 0.0;        // rank 1's clock minus rank 0's (seconds)
  double clock_offset_bound = 0.0;  // its uncertainty, half the shortest round trip
  bool same_host = true;            // then the offset is not applied (one clock), only reported
  std::vector<ColdPoint> points;    // in the order of the sizes given
};

// Both ranks of p call it with the same arguments; the result is valid on rank 0. A point
// with fewer than kMinAsIntended allreduces as intended is not a measurement of the call
// (the caller leaves the cold keys out and says why). Each
// working set is streamed once per measurement (5 a repetition); the face message must be
// eager (at most the measured S; the caller clamps it), so that a receive finds it there and
// a send does not wait for its receiver. p.out and p.in hold at least face_bytes.
ColdMessages measure_cold_messages(Pair& p, const std::vector<std::int64_t>& working_sets,
                                   std::int64_t small_bytes, std::int64_t face_bytes, int reps);

}  // namespace instrument::probe
