// Comm: the point-to-point calls the apps use, timed, counted per peer, and split into
// synchronisation wait and transfer as LogGPS (Ino et al. §2) defines them:
//   sender synchronisation   - a blocking send (or the wait of a non-blocking one) idle
//                              because the receiver has not posted the matching receive;
//   receiver synchronisation - a receive (or its wait) idle because the message has not
//                              arrived yet;
//   transfer                 - the rest: the routine's own cost for that message size.
//
// How the split is measured: a call that did not wait costs what the library needs for that
// size, and any waiting only adds to it. So for each direction and each power-of-two size
// class the wrapper keeps the count, the sum and the minimum of the call times; at the end,
// transfer = count x minimum and wait = sum - transfer. This needs no clock synchronisation
// between ranks and no extra MPI call; it is exact when at least one call of each size class
// did not wait, and otherwise understates the wait (never invents one).
//
// Every call also goes to the trace when tracing is on, with what MPI matches messages on,
// so a run's critical path can be rebuilt offline: send/recv (peer, tag, bytes; a receive
// records the source and tag it actually matched), the posts of non-blocking calls as phases
// "isend"/"irecv" carrying a per-rank request number, the "wait" that completes one (same
// request number), and the collectives (bytes = count x type size; bcast's peer is the root).
//
// With INSTRUMENT_ENABLED=0 every call only forwards to MPI: no clock read, no bookkeeping.
//
// The apps never name MPI for point-to-point traffic: they call these.
#pragma once
#include <mpi.h>

#include <array>
#include <cstdint>
#include <vector>

#include "instrument/recorder.hpp"

namespace instrument {

// The phases Comm records, named once: the critical path (critical_path.cpp) and the apps'
// category tables refer to them by these names.
namespace comm_phase {
inline constexpr const char* kSend = "send";    // blocking MPI_Send
inline constexpr const char* kRecv = "recv";    // blocking MPI_Recv
inline constexpr const char* kIsend = "isend";  // the post of MPI_Isend
inline constexpr const char* kIrecv = "irecv";  // the post of MPI_Irecv
inline constexpr const char* kWait = "wait";    // MPI_Wait completing a post
inline constexpr const char* kAllreduce = "allreduce";
inline constexpr const char* kBarrier = "barrier";
inline constexpr const char* kBcast = "bcast";
}  // namespace comm_phase

struct PeerTraffic {
  int peer = -1;
  std::int64_t messages_sent = 0, bytes_sent = 0;
  std::int64_t messages_received = 0, bytes_received = 0;
  Ticks send_ticks = 0, receive_ticks = 0;  // time in the calls (incl. waits), now_ticks()
};

// Statistics of the call times of one direction, one size class, in ticks.
struct SizeClassTimes {
  std::int64_t calls = 0;
  Ticks sum = 0;
  Ticks min = 0;  // valid when calls > 0
};

// Seconds (with the start calibration's rate: a figure for during the run).
struct CommSplit {
  double send_wait = 0.0, send_transfer = 0.0;
  double receive_wait = 0.0, receive_transfer = 0.0;
};

class Comm {
 public:
  // Non-blocking request with what the wrapper needs to account for it at the wait.
  struct Request {
    MPI_Request mpi = MPI_REQUEST_NULL;
    int peer = -1;
    int tag = -1;
    std::int64_t bytes = 0;
    bool is_send = false;
    std::int32_t id = -1;  // the trace's request number (per rank, from 0)
    Ticks post_ticks = 0;  // time spent in the Isend/Irecv call itself
  };

  static constexpr int kSizeClasses = 48;  // 2^0 .. 2^47 bytes

  Comm(MPI_Comm comm, Recorder& recorder);

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  MPI_Comm mpi() const noexcept { return comm_; }

  void send(const void* buf, int count, MPI_Datatype type, int dest, int tag);
  void recv(void* buf, int count, MPI_Datatype type, int source, int tag);
  Request isend(const void* buf, int count, MPI_Datatype type, int dest, int tag);
  Request irecv(void* buf, int count, MPI_Datatype type, int source, int tag);
  void wait(Request& request);
  void wait_all(Request* requests, int n);

  // Collectives are timed as one phase each ("allreduce", "barrier", "bcast").
  void allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op);
  void barrier();
  void bcast(void* buf, int count, MPI_Datatype type, int root);

  const std::vector<PeerTraffic>& peers() const noexcept { return peers_; }
  const std::array<SizeClassTimes, kSizeClasses>& send_times() const noexcept { return send_; }
  const std::array<SizeClassTimes, kSizeClasses>& receive_times() const noexcept { return recv_; }
  // The wait/transfer split of all calls so far (see the header comment).
  CommSplit split() const noexcept;
  // Sets the phases send_sync_wait, send_transfer, recv_sync_wait, recv_transfer and the
  // counters messages_sent, bytes_sent, messages_received, bytes_received of the recorder to
  // the split of all calls so far. Idempotent: a second call without traffic in between
  // changes nothing, and one after more traffic brings them up to date (nothing twice).
  void publish_split();

  static int size_class(std::int64_t bytes) noexcept;

 private:
  struct SplitTicks {
    Ticks send_wait = 0, send_transfer = 0, receive_wait = 0, receive_transfer = 0;
    std::int64_t sends = 0, receives = 0;
  };
  SplitTicks split_ticks() const noexcept;
  PeerTraffic& peer(int rank);
  void account(bool is_send, int peer, std::int64_t bytes, Ticks dt);
  void record_collective(PhaseId id, Ticks t0, Ticks t1, int peer, std::int64_t bytes);

  MPI_Comm comm_;
  Recorder& rec_;
  int rank_ = 0, size_ = 1;
  PhaseId ph_send_, ph_recv_, ph_isend_, ph_irecv_, ph_wait_, ph_allreduce_, ph_barrier_,
      ph_bcast_;
  std::int32_t next_request_ = 0;
  std::vector<PeerTraffic> peers_;
  std::array<SizeClassTimes, kSizeClasses> send_{};
  std::array<SizeClassTimes, kSizeClasses> recv_{};
};

}  // namespace instrument
