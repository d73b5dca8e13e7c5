#include "instrument/comm.hpp"

#include <algorithm>
#include <bit>

namespace instrument {

namespace {
[[maybe_unused]] std::int64_t bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  return static_cast<std::int64_t>(count) * size;
}

// Bytes a completed receive delivered (its status), in units of `type`'s size.
[[maybe_unused]] std::int64_t received_bytes(const MPI_Status& st, MPI_Datatype type) {
  int n = 0;
  MPI_Get_count(&st, type, &n);
  if (n == MPI_UNDEFINED) return 0;
  return bytes_of(n, type);
}

void add_call(SizeClassTimes& s, Ticks dt) {
  s.min = s.calls == 0 ? dt : std::min(s.min, dt);
  s.sum += dt;
  ++s.calls;
}
}  // namespace

Comm::Comm(MPI_Comm comm, Recorder& recorder) : comm_(comm), rec_(recorder) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  ph_send_ = rec_.define_phase(comm_phase::kSend);
  ph_recv_ = rec_.define_phase(comm_phase::kRecv);
  ph_isend_ = rec_.define_phase(comm_phase::kIsend);
  ph_irecv_ = rec_.define_phase(comm_phase::kIrecv);
  ph_wait_ = rec_.define_phase(comm_phase::kWait);
  ph_allreduce_ = rec_.define_phase(comm_phase::kAllreduce);
  ph_barrier_ = rec_.define_phase(comm_phase::kBarrier);
  ph_bcast_ = rec_.define_phase(comm_phase::kBcast);
  peers_.reserve(32);  // a stencil has few neighbours; more only grow at first contact
}

int Comm::size_class(std::int64_t bytes) noexcept {
  if (bytes <= 1) return 0;
  const int c = std::bit_width(static_cast<std::uint64_t>(bytes - 1));  // ceil(log2 bytes)
  return std::min(c, kSizeClasses - 1);
}

PeerTraffic& Comm::peer(int rank) {
  for (auto& p : peers_)
    if (p.peer == rank) return p;
  peers_.push_back(PeerTraffic{});
  peers_.back().peer = rank;
  return peers_.back();
}

void Comm::account(bool is_send, int peer_rank, std::int64_t bytes, Ticks dt) {
  PeerTraffic& p = peer(peer_rank);
  if (is_send) {
    ++p.messages_sent;
    p.bytes_sent += bytes;
    p.send_ticks += dt;
    add_call(send_[size_class(bytes)], dt);
  } else {
    ++p.messages_received;
    p.bytes_received += bytes;
    p.receive_ticks += dt;
    add_call(recv_[size_class(bytes)], dt);
  }
}

#if INSTRUMENT_ENABLED

void Comm::send(const void* buf, int count, MPI_Datatype type, int dest, int tag) {
  const Ticks t0 = now_ticks();
  MPI_Send(buf, count, type, dest, tag, comm_);
  const Ticks t1 = now_ticks();
  const std::int64_t bytes = bytes_of(count, type);
  rec_.add_ticks(ph_send_, t1 - t0);
  rec_.record_interval(ph_send_, t0, t1, dest, bytes, 0, tag);
  account(true, dest, bytes, t1 - t0);
}

void Comm::recv(void* buf, int count, MPI_Datatype type, int source, int tag) {
  MPI_Status st;
  const Ticks t0 = now_ticks();
  MPI_Recv(buf, count, type, source, tag, comm_, &st);
  const Ticks t1 = now_ticks();
  // What was matched, not what was asked for (the call may name MPI_ANY_SOURCE/ANY_TAG).
  const std::int64_t bytes = received_bytes(st, type);
  rec_.add_ticks(ph_recv_, t1 - t0);
  rec_.record_interval(ph_recv_, t0, t1, st.MPI_SOURCE, bytes, 0, st.MPI_TAG);
  account(false, st.MPI_SOURCE, bytes, t1 - t0);
}

Comm::Request Comm::isend(const void* buf, int count, MPI_Datatype type, int dest, int tag) {
  Request r;
  const Ticks t0 = now_ticks();
  MPI_Isend(buf, count, type, dest, tag, comm_, &r.mpi);
  const Ticks t1 = now_ticks();
  r.peer = dest;
  r.tag = tag;
  r.bytes = bytes_of(count, type);
  r.is_send = true;
  r.id = next_request_++;
  r.post_ticks = t1 - t0;
  rec_.add_ticks(ph_isend_, r.post_ticks);
  rec_.record_interval(ph_isend_, t0, t1, dest, r.bytes, 0, tag, r.id);
  return r;
}

Comm::Request Comm::irecv(void* buf, int count, MPI_Datatype type, int source, int tag) {
  Request r;
  const Ticks t0 = now_ticks();
  MPI_Irecv(buf, count, type, source, tag, comm_, &r.mpi);
  const Ticks t1 = now_ticks();
  r.peer = source;
  r.tag = tag;
  r.bytes = bytes_of(count, type);
  r.is_send = false;
  r.id = next_request_++;
  r.post_ticks = t1 - t0;
  rec_.add_ticks(ph_irecv_, r.post_ticks);
  // The posted source, tag and capacity; the wait records what was matched.
  rec_.record_interval(ph_irecv_, t0, t1, source, r.bytes, 0, tag, r.id);
  return r;
}

void Comm::wait(Request& r) {
  if (r.mpi == MPI_REQUEST_NULL) return;
  MPI_Status st;
  const Ticks t0 = now_ticks();
  MPI_Wait(&r.mpi, &st);
  const Ticks t1 = now_ticks();
  if (!r.is_send) {
    r.peer = st.MPI_SOURCE;
    r.tag = st.MPI_TAG;
    r.bytes = received_bytes(st, MPI_BYTE);
  }
  rec_.add_ticks(ph_wait_, t1 - t0);
  rec_.record_interval(ph_wait_, t0, t1, r.peer, r.bytes, 0, r.tag, r.id);
  // The post and the wait together are the routine cost of this message.
  account(r.is_send, r.peer, r.bytes, r.post_ticks + (t1 - t0));
  r.peer = -1;
}

void Comm::record_collective(PhaseId id, Ticks t0, Ticks t1, int peer_rank, std::int64_t bytes) {
  rec_.add_ticks(id, t1 - t0);
  rec_.record_interval(id, t0, t1, peer_rank, bytes);
}

void Comm::allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op) {
  const Ticks t0 = now_ticks();
  MPI_Allreduce(in, out, count, type, op, comm_);
  record_collective(ph_allreduce_, t0, now_ticks(), -1, bytes_of(count, type));
}

void Comm::barrier() {
  const Ticks t0 = now_ticks();
  MPI_Barrier(comm_);
  record_collective(ph_barrier_, t0, now_ticks(), -1, 0);
}

void Comm::bcast(void* buf, int count, MPI_Datatype type, int root) {
  const Ticks t0 = now_ticks();
  MPI_Bcast(buf, count, type, root, comm_);
  record_collective(ph_bcast_, t0, now_ticks(), root, bytes_of(count, type));
}

#else  // hooks compiled out: forward to MPI, nothing else

void Comm::send(const void* buf, int count, MPI_Datatype type, int dest, int tag) {
  MPI_Send(buf, count, type, dest, tag, comm_);
}

void Comm::recv(void* buf, int count, MPI_Datatype type, int source, int tag) {
  MPI_Recv(buf, count, type, source, tag, comm_, MPI_STATUS_IGNORE);
}

Comm::Request Comm::isend(const void* buf, int count, MPI_Datatype type, int dest, int tag) {
  Request r;
  MPI_Isend(buf, count, type, dest, tag, comm_, &r.mpi);
  return r;
}

Comm::Request Comm::irecv(void* buf, int count, MPI_Datatype type, int source, int tag) {
  Request r;
  MPI_Irecv(buf, count, type, source, tag, comm_, &r.mpi);
  return r;
}

void Comm::wait(Request& r) { MPI_Wait(&r.mpi, MPI_STATUS_IGNORE); }

void Comm::record_collective(PhaseId, Ticks, Ticks, int, std::int64_t) {}

void Comm::allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op) {
  MPI_Allreduce(in, out, count, type, op, comm_);
}

void Comm::barrier() { MPI_Barrier(comm_); }

void Comm::bcast(void* buf, int count, MPI_Datatype type, int root) {
  MPI_Bcast(buf, count, type, root, comm_);
}

#endif

void Comm::wait_all(Request* requests, int n) {
  for (int i = 0; i < n; ++i) wait(requests[i]);
}

Comm::SplitTicks Comm::split_ticks() const noexcept {
  SplitTicks c;
  for (const auto& s : send_) {
    if (s.calls == 0) continue;
    c.send_transfer += s.calls * s.min;
    c.send_wait += s.sum - s.calls * s.min;
    c.sends += s.calls;
  }
  for (const auto& s : recv_) {
    if (s.calls == 0) continue;
    c.receive_transfer += s.calls * s.min;
    c.receive_wait += s.sum - s.calls * s.min;
    c.receives += s.calls;
  }
  return c;
}

CommSplit Comm::split() const noexcept {
  const SplitTicks t = split_ticks();
#if INSTRUMENT_ENABLED
  const ClockConversion& c = provisional_conversion();
  return CommSplit{c.seconds(t.send_wait), c.seconds(t.send_transfer), c.seconds(t.receive_wait),
                   c.seconds(t.receive_transfer)};
#else
  (void)t;
  return CommSplit{};
#endif
}

void Comm::publish_split() {
  const SplitTicks c = split_ticks();
  rec_.set_ticks(rec_.define_phase("send_sync_wait"), c.send_wait, 0);
  rec_.set_ticks(rec_.define_phase("send_transfer"), c.send_transfer, c.sends);
  rec_.set_ticks(rec_.define_phase("recv_sync_wait"), c.receive_wait, 0);
  rec_.set_ticks(rec_.define_phase("recv_transfer"), c.receive_transfer, c.receives);
  std::int64_t ms = 0, bs = 0, mr = 0, br = 0;
  for (const auto& p : peers_) {
    ms += p.messages_sent;
    bs += p.bytes_sent;
    mr += p.messages_received;
    br += p.bytes_received;
  }
  rec_.set_count(rec_.define_counter("messages_sent"), ms);
  rec_.set_count(rec_.define_counter("bytes_sent"), bs);
  rec_.set_count(rec_.define_counter("messages_received"), mr);
  rec_.set_count(rec_.define_counter("bytes_received"), br);
}

}  // namespace instrument
