// Message costs under a working set: the timed loops. See probe_cold.hpp.
#include "instrument/probe_cold.hpp"

#include <mpi.h>
#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <new>
#include <string>

#include "instrument/clock.hpp"
#include "instrument/statistics.hpp"

namespace instrument::probe {

namespace {

constexpr int kTag = 11;

// Read and write every 8-byte word of the first `bytes` of `d`, as a kernel sweeping its
// arrays does. The recurrence keeps the values bounded (its fixed point is 1000).
void stream(double* d, std::int64_t bytes) {
  const std::size_t n = static_cast<std::size_t>(bytes / 8);
  for (std::size_t i = 0; i < n; ++i) d[i] = d[i] * 0.999 + 1.0;
}

// One streaming buffer: its own anonymous mapping (its own pages, wherever the kernel puts
// them), touched at once so that no page fault falls in a measurement.
class StreamBuffer {
 public:
  explicit StreamBuffer(std::int64_t bytes) : bytes_(static_cast<std::size_t>(std::max<std::int64_t>(bytes, 8))) {
    void* m = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<double*>(m);
    std::fill(data_, data_ + bytes_ / 8, 1.0);
  }
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;
  ~StreamBuffer() { ::munmap(data_, bytes_); }
  double* data() const { return data_; }

 private:
  std::size_t bytes_;
  double* data_ = nullptr;
};

void spin_until(double t) {
  while (now_seconds() < t) {
  }
}

// The compute of the after-stream experiment: until a deadline, either a spin that touches no
// memory (no buffer) or an application's kernel streaming its arrays: the buffer's 8-byte
// words read and written in order, 4 KiB at a time, from where the last call stopped, round
// and round (a sweep's blocks go through a rank's arrays in turn).
class ComputeUntil {
 public:
  explicit ComputeUntil(std::int64_t working_set)
      : buffer_(working_set > 0 ? std::make_unique<StreamBuffer>(working_set) : nullptr),
        words_(static_cast<std::size_t>(std::max<std::int64_t>(working_set, 8) / 8)) {}
  void operator()(double deadline) {
    if (!buffer_) return spin_until(deadline);
    constexpr std::size_t kChunk = 512;  // words: a page between two reads of the clock
    double* d = buffer_->data();
    while (now_seconds() < deadline) {
      const std::size_t end = std::min(next_ + kChunk, words_);
      for (std::size_t i = next_; i < end; ++i) d[i] = d[i] * 0.999 + 1.0;
      next_ = end == words_ ? 0 : end;
    }
  }

 private:
  std::unique_ptr<StreamBuffer> buffer_;
  std::size_t words_, next_ = 0;
};

// Rank 1's clock minus rank 0's, from the round trip with the shortest time (its reading
// lies within that round trip, so the offset is known to half of it).
void measure_clock_offset(Pair& p, ColdMessages& out) {
  constexpr int kTrials = 31;
  double best_rtt = 1e30, offset = 0.0;
  MPI_Barrier(p.comm);
  for (int i = 0; i < kTrials; ++i) {
    double t1 = 0.0;
    if (p.rank == 0) {
      const double t0 = now_seconds();
      MPI_Send(&t0, 1, MPI_DOUBLE, p.peer, kTag, p.comm);
      MPI_Recv(&t1, 1, MPI_DOUBLE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
      const double t2 = now_seconds();
      if (t2 - t0 < best_rtt) {
        best_rtt = t2 - t0;
        offset = t1 - 0.5 * (t0 + t2);
      }
    } else {
      double t0 = 0.0;
      MPI_Recv(&t0, 1, MPI_DOUBLE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
      t1 = now_seconds();
      MPI_Send(&t1, 1, MPI_DOUBLE, p.peer, kTag, p.comm);
    }
  }
  out.clock_offset = offset;
  out.clock_offset_bound = 0.5 * best_rtt;
  // On one host both ranks read one CLOCK_MONOTONIC: the offset is 0 by construction, and
  // the measured one (reported) only checks that; a loaded host's round trips would make
  // it noise.
  char name[MPI_MAX_PROCESSOR_NAME] = {}, peer_name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  MPI_Sendrecv(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, p.peer, kTag, peer_name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
               p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
  out.same_host = std::string(name) == std::string(peer_name);
  MPI_Bcast(&out.clock_offset, 1, MPI_DOUBLE, 0, p.comm);
}

// The time both ranks leave the streaming for the next call: one streaming of `bytes` from
// `a` (the slower rank's, the median of 3: one descheduling would lengthen every wait of
// the size, and a longer wait is a colder call), with margin, after the barrier that starts
// each measurement.
double streaming_allowance(Pair& p, double* a, std::int64_t bytes) {
  std::vector<double> times;
  for (int k = 0; k < 3; ++k) {
    const double t0 = now_seconds();
    stream(a, bytes);
    times.push_back(now_seconds() - t0);
  }
  double t = median(times), slowest = 0.0;
  MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, p.comm);
  return 1.5 * slowest + 50e-6;
}

// Per working set, what was timed: the allreduce's cost and rank 1's lateness (both ranks
// hold them), and the calls of one rank (the receives on rank 1, the sends on rank 0).
struct Samples {
  std::vector<double> allreduce, late_by, allreduce_as_intended;
  std::vector<double> receive_small, receive_face, send_small, send_face;
  std::vector<std::vector<double>> send_rendezvous, receive_rendezvous;  // rank 0's, one a size
};

// Rank 1 between half and twice kLateArrival after rank 0: the arrival the experiment
// intends. A rank descheduled during the streaming (a loaded host) arrives milliseconds
// late, or first: that measures the scheduler, not the call.
bool as_intended(double late_by) { return late_by >= 0.5 * kLateArrival && late_by <= 2.0 * kLateArrival; }

}  // namespace

ColdMessages measure_cold_messages(Pair& p, const std::vector<std::int64_t>& working_sets,
                                   std::int64_t small_bytes, std::int64_t face_bytes,
                                   const std::vector<std::int64_t>& rendezvous_bytes, int reps) {
  ColdMessages out;
  out.small_bytes = small_bytes;
  out.face_bytes = face_bytes;
  out.rendezvous_bytes = rendezvous_bytes;
  measure_clock_offset(p, out);
  const double to_rank0 = p.rank == 1 && !out.same_host ? out.clock_offset : 0.0;  // subtracted from this rank's reads

  std::int64_t largest = 8;
  for (std::int64_t n : working_sets) largest = std::max(largest, n);
  // Repetition r streams buffer r % kStreamBuffers (see probe_cold.hpp: one buffer's pages
  // are one draw of a process's memory placement, whose speed varies from run to run).
  std::vector<std::unique_ptr<StreamBuffer>> buffers;
  for (int b = 0; b < kStreamBuffers; ++b) buffers.push_back(std::make_unique<StreamBuffer>(largest));
  double* a = buffers[0]->data();  // the buffer of the repetition being measured
  std::vector<double> allowance;
  for (std::int64_t n : working_sets) {
    double longest = 0.0;  // the slowest buffer's
    for (const auto& b : buffers) longest = std::max(longest, streaming_allowance(p, b->data(), n));
    allowance.push_back(longest);
  }

  std::vector<Samples> s(working_sets.size());
  for (Samples& x : s) {
    x.send_rendezvous.resize(rendezvous_bytes.size());
    x.receive_rendezvous.resize(rendezvous_bytes.size());
  }
  // A measurement: barrier and one untimed allreduce (MPI's state warm again, whatever the
  // previous measurement streamed: so N = 0 is the warm reference), both ranks stream n
  // bytes, then each waits (spinning) for the same moment, rank `late` kLateArrival later,
  // so that the call under test comes first after the streaming on both and the ranks
  // arrive as in the application.
  auto start = [&](std::size_t i, int late) {
    MPI_Barrier(p.comm);
    double x = 1.0, sum = 0.0;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, p.comm);
    const double t0 = now_seconds();
    stream(a, working_sets[i]);
    spin_until(t0 + allowance[i] + (p.rank == late ? kLateArrival : 0.0));
  };
  const int small = static_cast<int>(small_bytes), face = static_cast<int>(face_bytes);
  auto cold_receive = [&](std::size_t i, int k, std::vector<double>& log) {
    if (p.rank == 0) MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kTag, p.comm);  // eager: there before
    start(i, -1);
    if (p.rank == 1) {
      const double t0 = now_seconds();
      MPI_Recv(p.in.data(), k, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
      log.push_back(now_seconds() - t0);
    }
  };
  auto cold_send = [&](std::size_t i, int k, std::vector<double>& log) {
    MPI_Request r = MPI_REQUEST_NULL;
    if (p.rank == 1) MPI_Irecv(p.in.data(), k, MPI_BYTE, p.peer, kTag, p.comm, &r);  // posted before
    start(i, -1);
    if (p.rank == 0) {
      const double t0 = now_seconds();
      MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kTag, p.comm);
      log.push_back(now_seconds() - t0);
    } else {
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  };
  // A rendezvous message after streaming, the rank of the call under test first and its
  // partner kLateArrival late: the call is charged from its partner's start to its return,
  // as the critical path charges a call that waited (the later of the two starts: a partner
  // descheduled into arriving first leaves the call its own time, as on the path).
  auto rendezvous = [&](std::size_t i, std::size_t j, bool time_the_send) {
    const int k = static_cast<int>(rendezvous_bytes[j]);
    // The previous message was one like it (a sweep sends a face every block), untimed: not
    // the eager calls measured before it (the first rendezvous after those costs more).
    if (p.rank == 0)
      MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kTag, p.comm);
    else
      MPI_Recv(p.in.data(), k, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    start(i, time_the_send ? 1 : 0);
    // The sender writes its message first, as a sweep's outflow copies the face into its
    // send buffer right before the send: the buffer is warm on the sender, cold on the receiver.
    if (p.rank == 0) std::fill(p.out.begin(), p.out.begin() + k, static_cast<char>('a' + (k + static_cast<int>(i)) % 26));
    const double t_in = now_seconds();
    if (p.rank == 0)
      MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kTag, p.comm);
    else
      MPI_Recv(p.in.data(), k, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    const double t_out = now_seconds();
    const double mine[2] = {t_in - to_rank0, t_out - to_rank0};
    double peer[2] = {0.0, 0.0};
    MPI_Sendrecv(mine, 2, MPI_DOUBLE, p.peer, kTag, peer, 2, MPI_DOUBLE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    if (p.rank != 0) return;
    const double both_there = std::max(mine[0], peer[0]);
    if (time_the_send)
      s[i].send_rendezvous[j].push_back(std::max(0.0, mine[1] - both_there));
    else
      s[i].receive_rendezvous[j].push_back(std::max(0.0, peer[1] - both_there));
  };
  // The allreduce after streaming, timed as the critical path times it; both ranks then
  // exchange their times (after the timed call) so that both know whether to repeat it.
  auto cold_allreduce = [&](std::size_t i) {
    double x = 1.0, sum = 0.0;
    start(i, 1);
    const double t_in = now_seconds();
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, p.comm);
    const double t_out = now_seconds();
    const double mine[2] = {t_in - to_rank0, t_out - to_rank0};
    double peer[2] = {0.0, 0.0};
    MPI_Sendrecv(mine, 2, MPI_DOUBLE, p.peer, kTag, peer, 2, MPI_DOUBLE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    const double cost = std::max(0.0, std::max(mine[1], peer[1]) - std::max(mine[0], peer[0]));
    const double late_by = p.rank == 1 ? mine[0] - peer[0] : peer[0] - mine[0];
    s[i].allreduce.push_back(cost);
    s[i].late_by.push_back(late_by);
    if (as_intended(late_by)) s[i].allreduce_as_intended.push_back(cost);
  };
  // The working sets in increasing order, kRepsPerVisit repetitions of one at a time, round
  // after round: a point is measured after streams no larger than its own, as in an
  // application that streams the same N bytes block after block, and a burst of load on the
  // host still falls on every size alike. Every repetition through every size, each point
  // followed the previous repetition's largest streams, which leave the rendezvous path's state
  // (not the warm-up allreduce's) out of the caches: the 12000-byte rendezvous send / receive
  // after 1 MiB read 8.5-9.2 / 8.5 us that way against 7.3-7.6 / 7.9-8.0 in visits of 8, and
  // 8.9-10.3 / 8.2-10.4 against 7.3-7.6 / 7.2-7.9 with all of a size's repetitions together
  // (AMD EPYC Zen 5, 2026-12-08, the default sizes, two sets of three probe runs of each,
  // alternated); sweep3d's face messages after its 0.92 MB blocks paid 5.4-11.3 us (the medians
  // of 24 runs).
  for (int first = 0; first < reps; first += kRepsPerVisit)
    for (std::size_t i = 0; i < working_sets.size(); ++i)
      for (int rep = first; rep < std::min(first + kRepsPerVisit, reps); ++rep) {
        a = buffers[static_cast<std::size_t>(rep % kStreamBuffers)]->data();
        check_deadline(p);
        cold_allreduce(i);
        cold_receive(i, small, s[i].receive_small);
        cold_receive(i, face, s[i].receive_face);
        cold_send(i, small, s[i].send_small);
        cold_send(i, face, s[i].send_face);
        for (std::size_t j = 0; j < rendezvous_bytes.size(); ++j) {
          rendezvous(i, j, true);
          rendezvous(i, j, false);
        }
      }
  // Too few arrivals as intended (a loaded host): up to max(reps, 10) more allreduces for that size
  // (both ranks decide alike from the same exchanged times).
  const std::size_t wanted = static_cast<std::size_t>(std::max(kMinAsIntended, reps / 2));
  for (std::size_t i = 0; i < working_sets.size(); ++i)
    for (int extra = 0; extra < std::max(reps, 10) && s[i].allreduce_as_intended.size() < wanted; ++extra) {
      a = buffers[static_cast<std::size_t>(extra % kStreamBuffers)]->data();
      check_deadline(p);
      cold_allreduce(i);
    }

  // Rank 1's receives to rank 0; rank 0 keeps its sends.
  for (std::size_t i = 0; i < working_sets.size(); ++i) {
    const int n = static_cast<int>(s[i].receive_small.size() + s[i].send_small.size());  // one of them is empty
    if (p.rank == 1) {
      MPI_Send(s[i].receive_small.data(), n, MPI_DOUBLE, p.peer, kTag, p.comm);
      MPI_Send(s[i].receive_face.data(), n, MPI_DOUBLE, p.peer, kTag, p.comm);
      continue;
    }
    s[i].receive_small.resize(static_cast<std::size_t>(n));
    s[i].receive_face.resize(static_cast<std::size_t>(n));
    MPI_Recv(s[i].receive_small.data(), n, MPI_DOUBLE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    MPI_Recv(s[i].receive_face.data(), n, MPI_DOUBLE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    const auto& kept = s[i].allreduce_as_intended;
    ColdPoint pt;
    pt.working_set_bytes = working_sets[i];
    pt.allreduce8 = kept.empty() ? 0.0 : median(kept);
    pt.receive_small = median(s[i].receive_small);
    pt.receive_face = median(s[i].receive_face);
    pt.send_small = median(s[i].send_small);
    pt.send_face = median(s[i].send_face);
    for (std::size_t j = 0; j < rendezvous_bytes.size(); ++j) {
      pt.send_rendezvous.push_back(median(s[i].send_rendezvous[j]));
      pt.receive_rendezvous.push_back(median(s[i].receive_rendezvous[j]));
    }
    pt.arrival_skew = median(s[i].late_by);
    pt.allreduce_kept = static_cast<int>(kept.size());
    pt.allreduce_reps = static_cast<int>(s[i].allreduce.size());
    out.points.push_back(pt);
  }
  return out;
}

AfterStreamMeasurement measure_after_stream(Pair& p, const std::vector<int>& message_counts, std::int64_t bytes,
                                            double gap, int reps, std::int64_t working_set) {
  AfterStreamMeasurement out;
  out.bytes = bytes;
  out.gap = gap;
  out.working_set = working_set;
  ComputeUntil compute(working_set);
  const int k = static_cast<int>(bytes);
  struct Samples {
    std::vector<double> interval, first, second;
    int made = 0;
  };
  std::vector<Samples> s(message_counts.size());
  // The sweep's own pair of reductions (sweep3d's source iteration: the fixups' count summed,
  // then the flux error's maximum), the previous ones too: each operation's code goes cold on
  // its own, and a pair of double sums, one warming the other, cost ~1.5x less after the
  // same stream (medians, AMD EPYC Zen 4 guest, 2026-12-05: 4.5 against 6.8 us after 5.7 ms
  // and 4 MiB streamed), which put sweep3d's reductions row at -34% (now -5%, BENCHMARKS.md).
  long long count = 1, counted = 0;
  double x = 1.0, largest = 0.0;
  const auto reductions = [&](double* t_first) {
    MPI_Allreduce(&count, &counted, 1, MPI_LONG_LONG, MPI_SUM, p.comm);
    if (t_first) *t_first = now_seconds();
    MPI_Allreduce(&x, &largest, 1, MPI_DOUBLE, MPI_MAX, p.comm);
  };
  auto once = [&](std::size_t i) {
    const int m = message_counts[i];
    check_deadline(p);
    MPI_Barrier(p.comm);
    reductions(nullptr);  // the previous collectives
    const double t_prev = now_seconds();
    double next = t_prev;
    for (int j = 0; j < m; ++j) {  // the sweep's end: 0 computes and sends; 1 receives and computes
      if (p.rank == 0) {
        next += gap;
        compute(next);
        MPI_Send(p.out.data(), k, MPI_BYTE, p.peer, kTag, p.comm);
      } else {
        MPI_Recv(p.in.data(), k, MPI_BYTE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
        // Half the gap: the receiver keeps up with the sender (with 0.9 x gap plus the
        // receive it fell behind and, after ~24 messages, the sender waited for buffer
        // space), so the stream takes `messages` x gap as the sweep's pipeline does.
        compute(now_seconds() + 0.5 * gap);
      }
    }
    // Both finish their last block; the receiver, whose block follows the last message,
    // arrives last (with no stream, kLateArrival after the other).
    compute(now_seconds() + gap + (m == 0 && p.rank == 1 ? kLateArrival : 0.0));
    const double t_in = now_seconds();
    double t_out = 0.0;
    reductions(&t_out);
    const double t_out2 = now_seconds();
    const double mine[4] = {t_prev, t_in, t_out, t_out2};
    double peer[4] = {0.0, 0.0, 0.0, 0.0};
    MPI_Sendrecv(mine, 4, MPI_DOUBLE, p.peer, kTag, peer, 4, MPI_DOUBLE, p.peer, kTag, p.comm, MPI_STATUS_IGNORE);
    const double* r0 = p.rank == 0 ? mine : peer;
    const double* r1 = p.rank == 0 ? peer : mine;
    ++s[i].made;
    const double late_by = r1[1] - r0[1];
    if (late_by <= 0.0 || late_by > gap + 1e-3) return;  // a descheduled rank: the scheduler, not the call
    s[i].interval.push_back(r0[1] - r0[0]);
    s[i].first.push_back(std::max(r0[2], r1[2]) - r1[1]);
    s[i].second.push_back(std::max(r0[3], r1[3]) - std::max(r0[2], r1[2]));
  };
  for (int rep = 0; rep < reps; ++rep)
    for (std::size_t i = 0; i < message_counts.size(); ++i) once(i);  // interleaved: load hits every count
  const std::size_t wanted = static_cast<std::size_t>(std::max(kMinAsIntended, reps / 2));
  for (std::size_t i = 0; i < message_counts.size(); ++i)
    for (int extra = 0; extra < std::max(reps, 10) && s[i].first.size() < wanted; ++extra) once(i);
  for (std::size_t i = 0; i < message_counts.size(); ++i) {
    AfterStreamPoint pt;
    pt.messages = message_counts[i];
    pt.made = s[i].made;
    pt.kept = static_cast<int>(s[i].first.size());
    if (pt.kept >= kMinAsIntended) {
      pt.interval = median(s[i].interval);
      pt.allreduce8 = median(s[i].first);
      pt.second_allreduce8 = median(s[i].second);
    } else {
      pt.kept = 0;
    }
    out.points.push_back(pt);
  }
  return out;
}

}  // namespace instrument::probe
