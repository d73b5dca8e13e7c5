// Cold message costs: what loggps-probe measured of the first MPI call after an application
// streamed N bytes (probe_cold.hpp), as the models read them from the machine file.
//
// The LogGP parameters (loggp.hpp) come from a ping-pong, with every cache warm. An
// application's message after a kernel block costs more (the MPI library's state, the
// buffers and page tables are cold); a model prices such a call at the working set its
// application streams, from these points: interpolated linearly in log N between the probed
// working sets N > 0, the end values held outside them. The N = 0 point is the warm
// reference measured the same way, so `x(N) - x(0)` is what the working set adds to a call.
//
// Machine file keys (all absent in files of earlier probes: the models then keep their
// warm terms and say so):
//   loggp.cold.small_bytes, loggp.cold.face_bytes    the two message sizes measured
//   loggp.cold.order                                 kColdOrder: the working sets measured in
//                                                    increasing order, 8 repetitions of one at
//                                                    a time (absent in files of earlier
//                                                    probes, which went one repetition at a
//                                                    time: outdated, the points past the L2
//                                                    ~1.15x high)
//   loggp.cold.points = n                            1..64
//   loggp.cold.point.<i>.working_set_bytes           increasing; the first is 0
//   loggp.cold.point.<i>.allreduce8                  s: 8-byte allreduce, last entry to later exit
//   loggp.cold.point.<i>.receive_small, .receive_face  s: blocking receive of a message already there
//   loggp.cold.point.<i>.send_small, .send_face      s: blocking (eager) send, receive posted
//   loggp.cold.rendezvous_sizes = r                  0..8; absent (earlier probes): 0
//   loggp.cold.rendezvous.<j>.bytes                  increasing, each above face_bytes (the
//                                                    protocol's handshake: the probe measures
//                                                    sizes above its S)
//   loggp.cold.point.<i>.rendezvous.<j>.send         s: a blocking send that waited for its
//                                                    receiver, from the receive's post to its return
//   loggp.cold.point.<i>.rendezvous.<j>.receive      s: a blocking receive that waited for its
//                                                    sender, from the send's start to its return
// The rendezvous figures are what the measured critical path charges such a call (the
// message's own cost once both sides were there, critical_path.hpp); between the sizes they
// are linear in bytes, the end values held outside them.
// Each time is checked in [0, 1] s (an overhead), each size in [0, 2^40] B; a refusal names
// the file and the key.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace instrument {

class MachineFile;

namespace loggp {

struct ColdPoint {
  std::int64_t working_set_bytes = 0;
  double allreduce8 = 0.0;
  double receive_small = 0.0, receive_face = 0.0;
  double send_small = 0.0, send_face = 0.0;
  // One a rendezvous size (ColdCosts::rendezvous_bytes), each after this working set.
  std::vector<double> send_rendezvous, receive_rendezvous;
};

// A message above the eager limit after a kernel block: what its two calls cost from the
// moment both sides were there (see the keys above).
struct RendezvousCosts {
  double send = 0.0, receive = 0.0;
};

// How today's probe orders its working sets (probe_cold.cpp, measure_cold_messages).
inline constexpr const char* kColdOrder = "increasing, 8 repetitions of a working set at a time";

struct ColdCosts {
  // loggp.cold.order: kColdOrder for today's probe; "" in a file of an earlier probe. Written
  // when not "".
  std::string order;
  std::int64_t small_bytes = 8, face_bytes = 8192;
  std::vector<std::int64_t> rendezvous_bytes;  // increasing, above face_bytes; empty: not measured
  std::vector<ColdPoint> points;  // increasing working_set_bytes, the first 0

  // The costs at working set n (bytes), interpolated in log n (see above).
  ColdPoint at(std::int64_t n) const;
  // A `bytes` message sent by the rendezvous after working set n: linear in bytes between the
  // measured sizes (end values held) at at(n). nullopt without rendezvous sizes.
  std::optional<RendezvousCosts> rendezvous_at(std::int64_t bytes, std::int64_t n) const;
  // The warm reference: the point at N = 0.
  const ColdPoint& warm() const { return points.front(); }
};

// Throws InputError(source, key, what) for the first value out of its range or out of order.
void validate(const ColdCosts& c, const std::string& source);

// nullopt when the file has no loggp.cold.* keys (an older probe's file); otherwise the
// costs, validated.
std::optional<ColdCosts> read_cold(const MachineFile& file);
void write_cold(const ColdCosts& c, MachineFile& file);

// The first collective after a one-way message stream (probe_cold.hpp, measure_after_stream):
// rank 0 sends `messages` messages of message_bytes to rank 1, computing gap_seconds before
// each, then both ranks enter an 8-byte allreduce. Its cost (last entry to later exit) grows
// with the time since the previous collective, not with the messages (the probe's comment
// gives the experiments), so the points are read as a function of that interval: linear in
// it between the points, the end values held outside them.
//
// Machine file keys (absent in files of earlier probes: the models then keep their other
// terms and say so):
//   loggp.after_stream.operations                      kAfterStreamOperations: the pair timed
//                                                      (absent in files of earlier probes, which
//                                                      timed two double sums: outdated, ~1.4x low)
//   loggp.after_stream.message_bytes, .gap_seconds     the stream measured
//   loggp.after_stream.points = n                      1..64
//   loggp.after_stream.point.<i>.messages              increasing; the first is 0
//   loggp.after_stream.point.<i>.interval_seconds      s, median from the previous collective's
//                                                      exit to this one's entry; increasing
//   loggp.after_stream.point.<i>.allreduce8            s: the first allreduce, last entry to later exit
//   loggp.after_stream.point.<i>.second_allreduce8     s: the one right after it
// These are with ranks that spin between the messages, touching no memory. The same stream
// with each rank's compute streaming a working set of N bytes (read and write, round and
// round, as a kernel's blocks go through a rank's arrays) costs more (probe_cold.hpp); those
// series, optional (absent in files of earlier probes: the spinning series alone is used):
//   loggp.after_stream.working_sets = k                0..8
//   loggp.after_stream.working_set.<w>.bytes           increasing, each > 0
//   loggp.after_stream.point.<i>.working_set.<w>.allreduce8, .second_allreduce8
//                                                      s, as above, at the point's interval
// Between working sets the figures are linear in log N, between 0 (the spinning series) and
// the first linear in N, the last one's held above it.
struct AfterStreamPoint {
  std::int64_t messages = 0;
  double interval = 0.0;
  double allreduce8 = 0.0, second_allreduce8 = 0.0;
  // One per AfterStream::working_sets: the figures with the ranks streaming that working set.
  std::vector<double> streamed_allreduce8, streamed_second_allreduce8;
};

// The reductions today's probe times, as a sweep3d iteration ends (probe_cold.hpp).
inline constexpr const char* kAfterStreamOperations = "MPI_LONG_LONG MPI_SUM, then MPI_DOUBLE MPI_MAX";

struct AfterStream {
  // loggp.after_stream.operations: kAfterStreamOperations for today's probe; "" in a file of
  // an earlier probe (two double sums, ~1.4x below the sweep's pair). Written when not "".
  std::string operations;
  std::int64_t message_bytes = 12000;
  double gap = 70e-6;
  std::vector<std::int64_t> working_sets;  // increasing, > 0; empty: the spinning series only
  std::vector<AfterStreamPoint> points;  // increasing messages and interval, the first 0 messages

  // The costs after `interval` seconds since the previous collective with ranks that spun
  // (see above); its streamed_* are interpolated alike.
  AfterStreamPoint at_interval(double interval) const;
  // The two allreduces after `interval` with each rank streaming `working_set` bytes (<= 0:
  // spinning), interpolated as above.
  struct Pair {
    double first = 0.0, second = 0.0;
  };
  Pair at(double interval, std::int64_t working_set) const;
};

void validate(const AfterStream& a, const std::string& source);
// nullopt when the file has no loggp.after_stream.* keys; otherwise the points, validated.
std::optional<AfterStream> read_after_stream(const MachineFile& file);
void write_after_stream(const AfterStream& a, MachineFile& file);

}  // namespace loggp
}  // namespace instrument
