#include "instrument/comm.hpp"

#include <algorithm>
#include <bit>

namespace instrument {

namespace {
std::int64_t bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  return static_cast<std::int64_t>(count) * size;
}

void add_time(SizeClassTimes& s, double dt) {
  s.min = s.calls == 0 ? dt : std::min(s.min, dt);
  s.sum += dt;
  ++s.calls;
}
}  // namespace

Comm::Comm(MPI_Comm comm, Recorder& recorder) : comm_(comm), rec_(recorder) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  ph_send_ = rec_.phase("send");
  ph_recv_ = rec_.phase("recv");
  ph_wait_ = rec_.phase("wait");
  ph_allreduce_ = rec_.phase("allreduce");
  ph_barrier_ = rec_.phase("barrier");
  ph_bcast_ = rec_.phase("bcast");
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

void Comm::account(bool is_send, int peer_rank, std::int64_t bytes, double t0, double t1) {
  const double dt = t1 - t0;
  PeerTraffic& p = peer(peer_rank);
  if (is_send) {
    ++p.messages_sent;
    p.bytes_sent += bytes;
    p.send_seconds += dt;
    add_time(send_[size_class(bytes)], dt);
  } else {
    ++p.messages_received;
    p.bytes_received += bytes;
    p.receive_seconds += dt;
    add_time(recv_[size_class(bytes)], dt);
  }
}

void Comm::send(const void* buf, int count, MPI_Datatype type, int dest, int tag) {
  const std::int64_t bytes = bytes_of(count, type);
  const double t0 = now_seconds();
  MPI_Send(buf, count, type, dest, tag, comm_);
  const double t1 = now_seconds();
#if INSTRUMENT_ENABLED
  rec_.add_time(ph_send_, t1 - t0);
  rec_.record_event(ph_send_, t0, t1, dest, bytes);
  account(true, dest, bytes, t0, t1);
#endif
}

void Comm::recv(void* buf, int count, MPI_Datatype type, int source, int tag) {
  const std::int64_t bytes = bytes_of(count, type);
  const double t0 = now_seconds();
  MPI_Recv(buf, count, type, source, tag, comm_, MPI_STATUS_IGNORE);
  const double t1 = now_seconds();
#if INSTRUMENT_ENABLED
  rec_.add_time(ph_recv_, t1 - t0);
  rec_.record_event(ph_recv_, t0, t1, source, bytes);
  account(false, source, bytes, t0, t1);
#endif
}

Comm::Request Comm::isend(const void* buf, int count, MPI_Datatype type, int dest, int tag) {
  Request r;
  r.peer = dest;
  r.bytes = bytes_of(count, type);
  r.is_send = true;
  const double t0 = now_seconds();
  MPI_Isend(buf, count, type, dest, tag, comm_, &r.mpi);
  r.post_seconds = now_seconds() - t0;
#if INSTRUMENT_ENABLED
  rec_.add_time(ph_send_, r.post_seconds);
#endif
  return r;
}

Comm::Request Comm::irecv(void* buf, int count, MPI_Datatype type, int source, int tag) {
  Request r;
  r.peer = source;
  r.bytes = bytes_of(count, type);
  r.is_send = false;
  const double t0 = now_seconds();
  MPI_Irecv(buf, count, type, source, tag, comm_, &r.mpi);
  r.post_seconds = now_seconds() - t0;
#if INSTRUMENT_ENABLED
  rec_.add_time(ph_recv_, r.post_seconds);
#endif
  return r;
}

void Comm::wait(Request& r) {
  if (r.mpi == MPI_REQUEST_NULL) return;
  const double t0 = now_seconds();
  MPI_Wait(&r.mpi, MPI_STATUS_IGNORE);
  const double t1 = now_seconds();
#if INSTRUMENT_ENABLED
  rec_.add_time(ph_wait_, t1 - t0);
  rec_.record_event(ph_wait_, t0, t1, r.peer, r.bytes);
  // The post and the wait together are the routine cost of this message.
  account(r.is_send, r.peer, r.bytes, t0 - r.post_seconds, t1);
#endif
  r.peer = -1;
}

void Comm::wait_all(Request* requests, int n) {
  for (int i = 0; i < n; ++i) wait(requests[i]);
}

void Comm::allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op) {
  ScopedPhase s(rec_, ph_allreduce_);
  MPI_Allreduce(in, out, count, type, op, comm_);
}

void Comm::barrier() {
  ScopedPhase s(rec_, ph_barrier_);
  MPI_Barrier(comm_);
}

void Comm::bcast(void* buf, int count, MPI_Datatype type, int root) {
  ScopedPhase s(rec_, ph_bcast_);
  MPI_Bcast(buf, count, type, root, comm_);
}

CommSplit Comm::split() const noexcept {
  CommSplit c;
  for (const auto& s : send_) {
    if (s.calls == 0) continue;
    c.send_transfer += s.calls * s.min;
    c.send_wait += s.sum - s.calls * s.min;
  }
  for (const auto& s : recv_) {
    if (s.calls == 0) continue;
    c.receive_transfer += s.calls * s.min;
    c.receive_wait += s.sum - s.calls * s.min;
  }
  return c;
}

void Comm::publish_split() {
  const CommSplit c = split();
  std::int64_t sends = 0, recvs = 0;
  for (const auto& s : send_) sends += s.calls;
  for (const auto& s : recv_) recvs += s.calls;
  rec_.add_time(rec_.phase("send_sync_wait"), c.send_wait, 0);
  rec_.add_time(rec_.phase("send_transfer"), c.send_transfer, sends);
  rec_.add_time(rec_.phase("recv_sync_wait"), c.receive_wait, 0);
  rec_.add_time(rec_.phase("recv_transfer"), c.receive_transfer, recvs);
  std::int64_t ms = 0, bs = 0, mr = 0, br = 0;
  for (const auto& p : peers_) {
    ms += p.messages_sent;
    bs += p.bytes_sent;
    mr += p.messages_received;
    br += p.bytes_received;
  }
  rec_.count(rec_.counter("messages_sent"), ms);
  rec_.count(rec_.counter("bytes_sent"), bs);
  rec_.count(rec_.counter("messages_received"), mr);
  rec_.count(rec_.counter("bytes_received"), br);
}

}  // namespace instrument
