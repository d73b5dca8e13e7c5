// Comm wrappers: per-peer counts and bytes, and the LogGPS split of call time into
// synchronisation wait and transfer, checked against delays we inject on purpose.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "instrument/comm.hpp"

using instrument::Comm;
using instrument::Recorder;

namespace {
void busy_for(double seconds) {
  const double t0 = instrument::now_seconds();
  while (instrument::now_seconds() - t0 < seconds) {
  }
}
int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// Timing checks need ranks 0 and 1 on their own cores: with 4 ranks on 2 cores the others
// would busy-poll and steal the CPU, turning every message into a scheduler wait. So the
// pair works in its own communicator and the rest sleep in a polled Ibarrier meanwhile.
void idle_until_all_arrive() {
  MPI_Request r;
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  int done = 0;
  while (!done) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (!done) std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

MPI_Comm pair_comm() {
  MPI_Comm c;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() < 2 ? 0 : MPI_UNDEFINED, world_rank(), &c);
  return c;
}
}  // namespace

TEST_CASE("ring exchange counts messages and bytes per peer") {
  Recorder rec;
  Comm comm(MPI_COMM_WORLD, rec);
  const int p = comm.size(), me = comm.rank();
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  std::vector<double> out(100, me), in(100, -1);
  for (int it = 0; it < 3; ++it) {
    auto r = comm.irecv(in.data(), 100, MPI_DOUBLE, left, 7);
    auto s = comm.isend(out.data(), 100, MPI_DOUBLE, right, 7);
    comm.wait(s);
    comm.wait(r);
    CHECK(in[0] == left);
  }
  std::int64_t sent = 0, received = 0, bytes_sent = 0;
  for (const auto& peer : comm.peers()) {
    sent += peer.messages_sent;
    received += peer.messages_received;
    bytes_sent += peer.bytes_sent;
    if (peer.messages_sent > 0) CHECK(peer.peer == right);
    if (peer.messages_received > 0) CHECK(peer.peer == left);
  }
  CHECK(sent == 3);
  CHECK(received == 3);
  CHECK(bytes_sent == 3 * 100 * 8);
  CHECK(rec.totals(rec.phase_id("wait")).calls == 6);
}

TEST_CASE("a receive posted early is receiver synchronisation, not transfer") {
  if (world_size() < 2) return;  // needs a partner
  MPI_Comm pair = pair_comm();
  if (pair == MPI_COMM_NULL) {
    idle_until_all_arrive();
    return;
  }
  Recorder rec;
  Comm comm(pair, rec);
  const int me = world_rank();
  const double delay = 0.2;  // large against scheduler noise on a loaded 2-core machine
  std::vector<char> buf(64);
  // Rounds 0-3 undelayed (they set each size class's minimum), round 4 the sender is late.
  for (int round = 0; round < 5; ++round) {
    comm.barrier();
    if (me == 1) {
      if (round == 4) busy_for(delay);
      comm.send(buf.data(), 64, MPI_CHAR, 0, round);
    } else if (me == 0) {
      comm.recv(buf.data(), 64, MPI_CHAR, 1, round);
    }
  }
  const auto split = comm.split();
  if (me == 0) {
    CHECK(split.receive_wait >= 0.7 * delay);
    CHECK(split.receive_wait <= 1.5 * delay + 0.05);
    CHECK(split.receive_transfer < 0.5 * delay);
    CHECK(split.send_wait == 0.0);
  }
  if (me == 1) CHECK(split.send_wait < 0.5 * delay);
  MPI_Comm_free(&pair);
  idle_until_all_arrive();
}

TEST_CASE("a large blocking send to a late receiver is sender synchronisation") {
  if (world_size() < 2) return;  // needs a partner
  MPI_Comm pair = pair_comm();
  if (pair == MPI_COMM_NULL) {
    idle_until_all_arrive();
    return;
  }

  Recorder rec;
  Comm comm(pair, rec);
  const int me = world_rank();
  const double delay = 0.2;
  const int n = 1 << 22;  // 4 MiB: far above any eager threshold, so MPI_Send must wait
  std::vector<char> buf(n);
  for (int round = 0; round < 4; ++round) {
    comm.barrier();
    if (me == 0) {
      comm.send(buf.data(), n, MPI_CHAR, 1, round);
    } else if (me == 1) {
      if (round == 3) busy_for(delay);
      comm.recv(buf.data(), n, MPI_CHAR, 0, round);
    }
  }
  const auto split = comm.split();
  if (me == 0) {
    CHECK(split.send_wait >= 0.7 * delay);
    CHECK(split.send_wait <= 1.5 * delay + 0.05);
    CHECK(split.send_transfer > 0.0);
  }
  comm.publish_split();
  if (me == 0) {
    CHECK(rec.totals(rec.phase_id("send_sync_wait")).inclusive == split.send_wait);
    CHECK(rec.value(rec.counter_id("bytes_sent")) == 4LL * n);
    CHECK(rec.value(rec.counter_id("messages_sent")) == 4);
  }
  MPI_Comm_free(&pair);
  idle_until_all_arrive();
}

TEST_CASE("every call is traced with what MPI matches messages on") {
  Recorder rec(64);
  Comm comm(MPI_COMM_WORLD, rec);
  const int p = comm.size(), me = comm.rank();
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  std::vector<std::string> kinds;  // the phase of each event, in order
  const auto& names = rec.phase_names();

  std::vector<double> three(3, 1.0);
  if (p >= 2 && me == 0) comm.send(three.data(), 3, MPI_DOUBLE, 1, 5);
  if (p >= 2 && me == 1) comm.recv(three.data(), 3, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG);
  std::vector<double> out(4, me), in(4, -1);
  auto r = comm.irecv(in.data(), 4, MPI_DOUBLE, left, 9);
  auto s = comm.isend(out.data(), 4, MPI_DOUBLE, right, 9);
  comm.wait(s);
  comm.wait(r);
  comm.allreduce(three.data(), out.data(), 3, MPI_DOUBLE, MPI_SUM);
  comm.barrier();
  int two[2] = {1, 2};
  comm.bcast(two, 2, MPI_INT, 0);

  const auto& ev = rec.trace_events();
  for (const auto& e : ev) kinds.push_back(names.at(static_cast<std::size_t>(e.kind)));
  std::vector<std::string> expected = {"irecv", "isend", "wait", "wait", "allreduce", "barrier",
                                       "bcast"};
  const bool blocking = p >= 2 && me < 2;
  if (blocking) expected.insert(expected.begin(), me == 0 ? "send" : "recv");
  REQUIRE(kinds == expected);
  std::size_t i = 0;
  if (blocking) {  // the receive names the source and tag it matched, not the wildcards
    CHECK(ev[i].peer == 1 - me);
    CHECK(ev[i].tag == 5);
    CHECK(ev[i].bytes == 24);
    CHECK(ev[i].request == -1);
    ++i;
  }
  const auto& post_r = ev[i], &post_s = ev[i + 1], &wait_s = ev[i + 2], &wait_r = ev[i + 3];
  CHECK(post_r.peer == left);
  CHECK(post_s.peer == right);
  CHECK(post_r.tag == 9);
  CHECK(post_s.tag == 9);
  CHECK(post_r.bytes == 32);
  CHECK(post_s.bytes == 32);
  CHECK(post_r.request == 0);  // numbered per rank, in the order of the posts
  CHECK(post_s.request == 1);
  CHECK(wait_s.request == post_s.request);
  CHECK(wait_r.request == post_r.request);
  CHECK(wait_s.peer == right);
  CHECK(wait_r.peer == left);
  CHECK(wait_r.tag == 9);
  CHECK(wait_r.bytes == 32);
  CHECK(ev[i + 4].bytes == 24);  // allreduce: 3 doubles
  CHECK(ev[i + 4].peer == -1);
  CHECK(ev[i + 5].bytes == 0);  // barrier
  CHECK(ev[i + 6].bytes == 8);  // bcast: 2 ints, peer = the root
  CHECK(ev[i + 6].peer == 0);
  for (const auto& e : ev) CHECK(e.t_end >= e.t_begin);
  CHECK(rec.totals(rec.phase_id("isend")).calls == 1);
  CHECK(rec.totals(rec.phase_id("irecv")).calls == 1);
  CHECK(rec.totals(rec.phase_id("wait")).calls == 2);
  CHECK(rec.totals(rec.phase_id("bcast")).calls == 1);
}

TEST_CASE("publish_split is idempotent and brings the figures up to date") {
  Recorder rec;
  Comm comm(MPI_COMM_WORLD, rec);
  const int p = comm.size(), me = comm.rank();
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  std::vector<char> out(100), in(100);
  auto ring = [&] {
    auto r = comm.irecv(in.data(), 100, MPI_CHAR, left, 1);
    auto s = comm.isend(out.data(), 100, MPI_CHAR, right, 1);
    comm.wait(s);
    comm.wait(r);
  };
  ring();
  comm.publish_split();
  const auto first = rec.phase_totals();
  const auto counters = rec.counter_values();
  comm.publish_split();  // nothing happened in between: nothing changes
  const auto& again = rec.phase_totals();
  REQUIRE(again.size() == first.size());
  for (std::size_t k = 0; k < first.size(); ++k) {
    CHECK(again[k].inclusive == first[k].inclusive);
    CHECK(again[k].exclusive == first[k].exclusive);
    CHECK(again[k].calls == first[k].calls);
  }
  CHECK(rec.counter_values() == counters);
  CHECK(rec.value(rec.counter_id("messages_sent")) == 1);
  CHECK(rec.value(rec.counter_id("bytes_received")) == 100);
  CHECK(rec.totals(rec.phase_id("send_transfer")).calls == 1);
  ring();
  comm.publish_split();  // the split of all calls so far, not added on top of the last one
  CHECK(rec.value(rec.counter_id("messages_sent")) == 2);
  CHECK(rec.value(rec.counter_id("bytes_sent")) == 200);
  CHECK(rec.totals(rec.phase_id("send_transfer")).calls == 2);
  CHECK(rec.totals(rec.phase_id("recv_transfer")).calls == 2);
  const auto split = comm.split();
  CHECK(rec.totals(rec.phase_id("send_transfer")).inclusive == split.send_transfer);
  CHECK(rec.totals(rec.phase_id("recv_sync_wait")).inclusive == split.receive_wait);
}

TEST_CASE("size classes are powers of two") {
  CHECK(Comm::size_class(0) == 0);
  CHECK(Comm::size_class(1) == 0);
  CHECK(Comm::size_class(2) == 1);
  CHECK(Comm::size_class(3) == 2);
  CHECK(Comm::size_class(4) == 2);
  CHECK(Comm::size_class(5) == 3);
  CHECK(Comm::size_class(1 << 20) == 20);
  CHECK(Comm::size_class((1 << 20) + 1) == 21);
}
