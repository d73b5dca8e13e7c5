// The replay engine against timelines worked out by hand on the round machine of
// unit_replay_program.hpp (times in us in the comments; T1(k) = T3(k) = 0.1 + 0.0001 k,
// T2(k) = 1 + 0.001 k, T5 = 1.2, o' = 0.1, L = 1, g = 0.2, S = 1024 B).
#include <catch2/catch.hpp>

#include <limits>
#include <sstream>

#include "instrument/collective_model.hpp"
#include "instrument/loggps.hpp"
#include "instrument/replay.hpp"
#include "instrument/trace_export.hpp"
#include "unit_replay_program.hpp"

using namespace replay_test;
using instrument::replay::Result;
using instrument::replay::simulate;

namespace {
Approx us(double v) { return Approx(v * 1e-6).epsilon(1e-12).margin(1e-18); }
}  // namespace

TEST_CASE("eager ping-pong: every call by hand, and Ino's round trip", "[replay]") {
  const Machine m = round_machine();
  // k = 8: T1 = T3 = 0.1008, T2 = 1.008.
  // rank 0 send: inj = 0.1008, returns there, arrives 1.1088.
  // rank 1 recv (posted at 0): returns 1.1088 + 0.1008 = 1.2096; its send: inj 1.3104,
  //   arrives 2.3184.  rank 0 recv (called 0.1008): returns 2.3184 + 0.1008 = 2.4192.
  const auto p = program({{send(1, 8), recv(1, 8)}, {recv(0, 8), send(0, 8)}});
  const Result r = simulate(p, m);
  CHECK(r.ranks[0].send == us(0.1008));
  CHECK(r.ranks[0].receive == us(2.4192 - 0.1008));
  CHECK(r.ranks[0].end == us(2.4192));
  CHECK(r.ranks[1].receive == us(1.2096));
  CHECK(r.ranks[1].send == us(0.1008));
  CHECK(r.ranks[1].end == us(1.3104));
  CHECK(r.total == us(2.4192));
  CHECK(r.events == 4);
  CHECK(r.total == Approx(instrument::loggps::round_trip_time(m.net, 8, 0.0)).epsilon(1e-12));

  // With w = 3 between rank 0's send and receive: the reply is already in at 3.1008, so
  // the receive returns 3.1008 + 0.1008 = 3.2016 (eq. 12: w + T1 + T3).
  const auto pw = program({{send(1, 8), compute(3e-6), recv(1, 8)}, {recv(0, 8), send(0, 8)}});
  const Result rw = simulate(pw, m);
  CHECK(rw.total == us(3.2016));
  CHECK(rw.total == Approx(instrument::loggps::round_trip_time(m.net, 8, 3e-6)).epsilon(1e-12));
  CHECK(rw.ranks[0].compute == us(3.0));
}

TEST_CASE("rendezvous ping-pong: the handshake by hand, and Ino's round trip", "[replay]") {
  const Machine m = round_machine();
  // k = 2048 > S: T1 = T3 = 0.3048, T2' = 3.048.
  // rank 0 send at 0, rank 1 posted at 0: H = max(0 + 0.1 + 1, 0) + 0.1 + 1.2 = 2.4;
  //   inj = 2.7048 (send returns), arrival 5.7528; rank 1 recv returns 6.0576.
  // rank 1 send at 6.0576, rank 0 posted at 2.7048: H = 7.1576 + 1.3 = 8.4576;
  //   inj = 8.7624 (rank 1 ends), arrival 11.8104; rank 0 recv returns 12.1152.
  const auto p = program({{send(1, 2048), recv(1, 2048)}, {recv(0, 2048), send(0, 2048)}});
  const Result r = simulate(p, m);
  CHECK(r.ranks[0].send == us(2.7048));
  CHECK(r.ranks[0].end == us(12.1152));
  CHECK(r.ranks[1].receive == us(6.0576));
  CHECK(r.ranks[1].send == us(8.7624 - 6.0576));
  CHECK(r.ranks[1].end == us(8.7624));
  CHECK(r.total == Approx(instrument::loggps::round_trip_time(m.net, 2048, 0.0)).epsilon(1e-12));
}

TEST_CASE("a rendezvous that returns after the transfer, with a handshake H", "[replay]") {
  Machine m = round_machine();
  m.net.H = 0.5e-6;
  m.net.send_returns = instrument::loggps::SendReturns::after_transfer;
  // k = 2048: T5 = 1.2 + 0.5 = 1.7. rank 0 send at 0, rank 1 posted at 0:
  //   ready = 1.1 + 0.1 + 1.7 = 2.9; inj = 3.2048; arrival 6.2528: the send returns there
  //   (after the transfer), the receive at 6.5576.
  // rank 1 send at 6.5576, rank 0 posted at 6.2528 (its send returned then):
  //   ready = max(7.6576, 6.2528) + 1.8 = 9.4576; inj 9.7624, arrival 12.8104: rank 1's send
  //   returns there; rank 0's receive at 13.1152.
  const auto p = program({{send(1, 2048), recv(1, 2048)}, {recv(0, 2048), send(0, 2048)}});
  const Result r = simulate(p, m);
  CHECK(r.ranks[0].send == us(6.2528));
  CHECK(r.ranks[0].send == Approx(instrument::loggps::mpi_send_cost(m.net, 2048)).epsilon(1e-12));
  CHECK(r.ranks[1].receive == us(6.5576));
  CHECK(r.ranks[1].send == us(12.8104 - 6.5576));
  CHECK(r.ranks[0].end == us(13.1152));
  CHECK(r.total == Approx(instrument::loggps::round_trip_time(m.net, 2048, 0.0)).epsilon(1e-12));
  // With w = 20 after rank 0's send: eq. (14) with the delay starting T2' later.
  const auto pw = program({{send(1, 2048), compute(20e-6), recv(1, 2048)}, {recv(0, 2048), send(0, 2048)}});
  const Result rw = simulate(pw, m);
  CHECK(rw.total == Approx(instrument::loggps::round_trip_time(m.net, 2048, 20e-6)).epsilon(1e-12));
  // Posted: the wait of an isend above S returns after the transfer too (6.2528).
  const auto pi = program({{isend(1, 2048, 7), compute(1e-6), wait(7)}, {recv(0, 2048)}});
  const Result ri = simulate(pi, m);
  CHECK(ri.ranks[0].wait == us(6.2528 - 1.1));
  // An eager send is untouched by the rule: it returns at its injection, 0.1008.
  const auto pe = program({{send(1, 8)}, {recv(0, 8)}});
  CHECK(simulate(pe, m).ranks[0].send == us(0.1008));
}

TEST_CASE("three-stage pipeline of two blocks: the middle stage sets the pace", "[replay]") {
  const Machine m = round_machine();
  // k = 8. rank 0: compute 1, send; compute 1, send.  rank 1: (recv, compute 2, send) x 2.
  // rank 2: (recv, compute 1) x 2.
  // r0: send 1 inj 1.1008 (arr 2.1088), NIC free from 1.3008; send 2 called 2.1008,
  //     inj 2.2016 (arr 3.2096); ends 2.2016.
  // r1: recv -> 2.2096, compute -> 4.2096, send inj 4.3104 (arr 5.3184);
  //     recv (called 4.3104, msg in at 3.2096) -> 4.4112, compute -> 6.4112,
  //     send inj 6.5120 (arr 7.5200); ends 6.5120.
  // r2: recv -> 5.4192, compute -> 6.4192; recv -> 7.6208, compute -> 8.6208.
  const std::vector<Op> first = {compute(1e-6), send(1, 8), compute(1e-6), send(1, 8)};
  const std::vector<Op> middle = {recv(0, 8), compute(2e-6), send(2, 8),
                                  recv(0, 8), compute(2e-6), send(2, 8)};
  const std::vector<Op> last = {recv(1, 8), compute(1e-6), recv(1, 8), compute(1e-6)};
  const Result r = simulate(program({first, middle, last}), m);
  CHECK(r.ranks[0].end == us(2.2016));
  CHECK(r.ranks[1].end == us(6.5120));
  CHECK(r.ranks[1].receive == us(2.2096 + (4.4112 - 4.3104)));
  CHECK(r.ranks[2].receive == us(5.4192 + (7.6208 - 6.4192)));
  CHECK(r.ranks[2].end == us(8.6208));
  CHECK(r.total == us(8.6208));
  CHECK(r.events == 4 + 6 + 4);
}

TEST_CASE("a wait on two requests, in either order", "[replay]") {
  const Machine m = round_machine();
  // rank 0 posts irecv from 1 (at 0) and from 2 (at 0.1), returns at 0.2.
  // rank 1: compute 1, send: inj 1.1008, arrives 2.1088 -> the receive is done at 2.2096.
  // rank 2: compute 3, send: inj 3.1008, arrives 4.1088 -> done at 4.2096.
  // wait 0 then 1: max(0.3, 2.2096) = 2.2096; max(2.3096, 4.2096) = 4.2096.
  // wait 1 then 0: max(0.3, 4.2096) = 4.2096; max(4.3096, 2.2096) = 4.3096 (eq. 11: o').
  const std::vector<Op> r1 = {compute(1e-6), send(0, 8)};
  const std::vector<Op> r2 = {compute(3e-6), send(0, 8)};
  const Result in_order =
      simulate(program({{irecv(1, 8, 0), irecv(2, 8, 1), wait(0), wait(1)}, r1, r2}), m);
  CHECK(in_order.ranks[0].receive == us(0.2));
  CHECK(in_order.ranks[0].wait == us(4.2096 - 0.2));
  CHECK(in_order.ranks[0].end == us(4.2096));
  const Result reversed =
      simulate(program({{irecv(1, 8, 0), irecv(2, 8, 1), wait(1), wait(0)}, r1, r2}), m);
  CHECK(reversed.ranks[0].end == us(4.3096));
}

TEST_CASE("a message above S whose receiver is late holds the sender", "[replay]") {
  const Machine m = round_machine();
  // k = 2048, rank 1 posts at 10: H = max(0 + 1.1, 10) + 1.3 = 11.3; inj = 11.6048: the
  // blocking send returns there (Ino eq. 5: T4 + T5 + T1 with t_r - t_s = 10).
  // arrival 11.6048 + 3.048 = 14.6528; the receive returns 14.9576.
  const auto p = program({{send(1, 2048)}, {compute(10e-6), recv(0, 2048)}});
  const Result r = simulate(p, m);
  CHECK(r.ranks[0].send == us(11.6048));
  CHECK(r.ranks[0].send ==
        Approx(instrument::loggps::mpi_send_cost(m.net, 2048, 10e-6)).epsilon(1e-12));
  CHECK(r.ranks[1].end == us(14.9576));
  CHECK(r.ranks[1].receive ==
        Approx(instrument::loggps::mpi_recv_cost(m.net, 2048, 10e-6)).epsilon(1e-12));

  // Posted: isend returns at 0.1, compute to 1.1, the wait returns at inj = 11.6048.
  const auto pi = program({{isend(1, 2048, 7), compute(1e-6), wait(7)}, {compute(10e-6), recv(0, 2048)}});
  const Result ri = simulate(pi, m);
  CHECK(ri.ranks[0].send == us(0.1));
  CHECK(ri.ranks[0].wait == us(11.6048 - 1.1));
  CHECK(ri.ranks[1].end == us(14.9576));
}

TEST_CASE("the gap g spaces back-to-back injections", "[replay]") {
  Machine m = round_machine();
  // Three sends of 8 B, g = 1: inj 0.1008; then max(0.2016, 0.1008 + 1) = 1.1008; then
  // max(1.2016, 2.1008) = 2.1008. Arrivals 1.1088, 2.1088, 3.1088; rank 1's receives return
  // 1.2096, 2.2096, 3.2096.
  const auto p = program({{send(1, 8), send(1, 8), send(1, 8)}, {recv(0, 8), recv(0, 8), recv(0, 8)}});
  m.g = 1e-6;
  const Result slow = simulate(p, m);
  CHECK(slow.ranks[0].end == us(2.1008));
  CHECK(slow.ranks[1].end == us(3.2096));
  // g = 0: only the bytes hold the NIC (8 ns): inj 0.1008, 0.2016, 0.3024.
  m.g = 0.0;
  const Result fast = simulate(p, m);
  CHECK(fast.ranks[0].end == us(0.3024));
  // 1000 B eager, g = 0: the bytes hold the NIC for T2 - L = 1 us: inj 0.2, then
  // max(0.4, 1.2) = 1.2.
  const auto big = program({{send(1, 1000), send(1, 1000)}, {recv(0, 1000), recv(0, 1000)}});
  CHECK(simulate(big, m).ranks[0].end == us(1.2));
}

TEST_CASE("collectives return together at the last call plus their cost", "[replay]") {
  const Machine m = round_machine();
  // 3 ranks call at 0, 1, 2 us. allreduce of 8 B: 3 rounds (p' = 2, plus 2) of
  // T1 + T2 + T3 = 1.2096 -> all return at 2 + 3.6288 = 5.6288.
  auto p = program({{collective(Collective::allreduce, 8)},
                    {compute(1e-6), collective(Collective::allreduce, 8)},
                    {compute(2e-6), collective(Collective::allreduce, 8)}});
  Result r = simulate(p, m);
  for (int i = 0; i < 3; ++i) CHECK(r.ranks[static_cast<std::size_t>(i)].end == us(5.6288));
  CHECK(r.ranks[0].collective == us(5.6288));
  CHECK(r.ranks[2].collective == us(3.6288));
  CHECK(r.ranks[2].collective ==  // the last caller waits for nobody: the cost alone
        Approx(instrument::allreduce_seconds(3, 1.2096e-6)).epsilon(1e-12));
  // barrier: k = 0, one message 1.2 -> 3 x 1.2; bcast of 8 B from 1: ceil(log2 3) = 2 rounds.
  for (auto& ops : p.per_rank) ops.back() = collective(Collective::barrier);
  CHECK(simulate(p, m).total == us(2 + 3.6));
  for (auto& ops : p.per_rank) ops.back() = collective(Collective::bcast, 8, 1);
  CHECK(simulate(p, m).total == us(2 + 2 * 1.2096));
}

TEST_CASE("contention: two messages leaving one node share its link", "[replay]") {
  Machine m = round_machine();
  // Nodes {0, 1} and {2, 3}; 0 -> 2 and 1 -> 3, 1024 B eager at 0: T1 = T3 = 0.2024,
  // T2 = 2.024. Off: both inj 0.2024, arrive 2.2264, receives return 2.4288.
  // On, 1 GB/s: 0's request comes first (the lower rank, at a tie) and holds the
  // link for 1.024 until 1.2264; 1's injection waits until then: arrival 3.2504, its
  // receive returns 3.4528 = 2.4288 + 1.024, and its blocking send returns at 1.2264.
  const auto p = program({{send(2, 1024)}, {send(3, 1024)}, {recv(0, 1024)}, {recv(1, 1024)}});
  const Result off = simulate(p, m);
  CHECK(off.total == us(2.4288));
  m.ranks_per_node = 2;
  m.node_bytes_per_second = 1e9;
  const Result on = simulate(p, m);
  CHECK(on.ranks[0].end == us(0.2024));
  CHECK(on.ranks[1].end == us(1.2264));
  CHECK(on.ranks[2].end == us(2.4288));
  CHECK(on.ranks[3].end == us(3.4528));
  CHECK(on.total - off.total == Approx(1024 / 1e9).epsilon(1e-9));
  instrument::replay::Options time_ordered;
  time_ordered.time_ordered = true;
  CHECK(simulate(p, m, time_ordered).ranks[3].end == us(3.4528));
  // Within a node nothing changes: 0 -> 1 and 2 -> 3.
  const auto local = program({{send(1, 1024)}, {recv(0, 1024)}, {send(3, 1024)}, {recv(2, 1024)}});
  CHECK(simulate(local, m).total == us(2.4288));
}

TEST_CASE("contention: requests at one time go by sender, then its program order", "[replay]") {
  Machine m = round_machine();
  m.ranks_per_node = 2;  // nodes {0, 1} and {2, 3}
  m.node_bytes_per_second = 1e9;
  // Rank 2's op 1 (a posted 2048 B rendezvous send to 0) and op 2 (8 B eager to 1) request
  // node 1's link at the same time, 1102.5: both wait for rank 2's NIC, busy with a 1e6 B
  // send to rank 3 (same node, no link). Rank 0 posts op 1's receive at 1.3096, but only
  // after a grant of rank 3's message to it: the causal loop makes op 2's request before
  // op 1's. Program order grants op 1 first either way.
  // rank 3: irecv at 0 -> 0.1; send to 0: inj 0.2008 (link to 0.2088); wait: the 1e6 B
  //   message, inj 102.5 (H = 1.1 + 1.3 = 2.4, T1 = 100.1), arrival 102.5 + 1001 = 1103.5,
  //   done 1103.5 + 100.1 = 1203.6.
  // rank 2: send returns at 102.5, NIC busy until 102.5 + 1000 = 1102.5; isend 102.5 ->
  //   102.6; send(1, 8): inj0 = max(102.7008, 1102.5) = 1102.5.
  // rank 0: recv 0.2008 + 1.008 + 0.1008 = 1.3096; irecv -> 1.4096: H = 103.6 + 1.3 =
  //   104.9, inj0 = max(105.2048, 1102.5) = 1102.5.
  // op 1 first: inj 1102.5, link until 1104.548, arrival 1105.548; rank 0's wait returns
  //   1105.548 + 0.3048 = 1105.8528. op 2: inj 1104.548 (rank 2's send returns there, its
  //   wait at 1104.648), arrival 1105.556; rank 1's receive returns 1105.6568.
  // (Op 2 first would give rank 1 1103.6088 and rank 0 1105.8608.)
  const auto p = program({{recv(3, 8), irecv(2, 2048, 0), wait(0)},
                          {recv(2, 8)},
                          {send(3, 1000000), isend(0, 2048, 0), send(1, 8), wait(0)},
                          {irecv(2, 1000000, 0), send(0, 8), wait(0)}});
  instrument::replay::Options time_ordered;
  time_ordered.time_ordered = true;
  for (const Result& r : {simulate(p, m), simulate(p, m, time_ordered)}) {
    CHECK(r.ranks[0].end == us(1105.8528));
    CHECK(r.ranks[1].end == us(1105.6568));
    CHECK(r.ranks[2].send == us(102.5 + 0.1 + (1104.548 - 102.6)));
    CHECK(r.ranks[2].end == us(1104.648));
    CHECK(r.ranks[3].end == us(1203.6));
  }
}

namespace {
// Every kind of operation on 6 ranks: a ring of posted exchanges (eager and rendezvous), a
// pipeline with blocking calls, collectives, self messages.
StoredProgram mixed_program() {
  StoredProgram p;
  const int P = 6;
  p.per_rank.resize(P);
  for (int r = 0; r < P; ++r) {
    auto& ops = p.per_rank[static_cast<std::size_t>(r)];
    const int right = (r + 1) % P, left = (r + P - 1) % P;
    for (int it = 0; it < 4; ++it) {
      const std::int64_t k = it % 2 == 0 ? 100 + 10 * r : 5000;
      ops.push_back(irecv(left, k, 0, it));
      ops.push_back(isend(right, k, 1, it));
      ops.push_back(compute(1e-6 * (1 + (r * 7 + it) % 3)));
      ops.push_back(wait(1));
      ops.push_back(wait(0));
      if (r > 0) ops.push_back(recv(r - 1, 2000 * it, 9));
      ops.push_back(compute(0.5e-6 * r));
      if (r < P - 1) ops.push_back(send(r + 1, 2000 * it, 9));
      ops.push_back(isend(r, 64, 2, 3));  // to itself
      ops.push_back(recv(r, 64, 3));
      ops.push_back(wait(2));
      ops.push_back(collective(it % 2 == 0 ? Collective::allreduce : Collective::barrier, 8));
    }
  }
  return p;
}
}  // namespace

namespace {
void check_same(const Result& a, const Result& b) {
  REQUIRE(a.ranks.size() == b.ranks.size());
  for (std::size_t r = 0; r < a.ranks.size(); ++r) {
    CHECK(a.ranks[r].end == b.ranks[r].end);
    CHECK(a.ranks[r].compute == b.ranks[r].compute);
    CHECK(a.ranks[r].send == b.ranks[r].send);
    CHECK(a.ranks[r].receive == b.ranks[r].receive);
    CHECK(a.ranks[r].wait == b.ranks[r].wait);
    CHECK(a.ranks[r].collective == b.ranks[r].collective);
    CHECK(a.ranks[r].ops == b.ranks[r].ops);
  }
  CHECK(a.total == b.total);
}
}  // namespace

TEST_CASE("causal order and time order give the same results", "[replay]") {
  const auto p = mixed_program();
  Machine m = round_machine();
  instrument::replay::Options time_ordered;
  time_ordered.time_ordered = true;
  const Result causal = simulate(p, m);
  CHECK(causal.events == static_cast<std::int64_t>(6 * 4 * 10 + 5 * 4 * 2));
  check_same(causal, simulate(p, m, time_ordered));
  // A link that never delays anything changes nothing: every message but the self messages
  // goes through the link queue, granted at inj0.
  m.ranks_per_node = 1;
  m.node_bytes_per_second = std::numeric_limits<double>::infinity();
  check_same(causal, simulate(p, m));
  check_same(causal, simulate(p, m, time_ordered));
  // Where the grant order matters (a busy link shared by 2 or 3 ranks), the grants made when
  // no rank can run are the grants of the time-ordered loop.
  for (const int per_node : {2, 3}) {
    m.ranks_per_node = per_node;
    m.node_bytes_per_second = 2e8;
    const Result contended = simulate(p, m);
    CHECK(contended.total > causal.total);
    check_same(contended, simulate(p, m, time_ordered));
  }
}

TEST_CASE("the timeline holds every call, named for the Chrome trace", "[replay]") {
  const auto p = program({{compute(1e-6, 42), isend(1, 8, 3, 5), wait(3)}, {recv(0, 8, 5)}});
  instrument::replay::Options o;
  o.keep_timeline = true;
  const Result r = simulate(p, round_machine(), o);
  const auto& t = r.timeline;
  REQUIRE(t.per_rank.size() == 2);
  REQUIRE(t.per_rank[0].size() == 3);
  REQUIRE(t.per_rank[1].size() == 1);
  CHECK(t.dropped == std::vector<std::int64_t>{0, 0});
  CHECK(t.phase_name(t.per_rank[0][0]) == "compute");
  CHECK(t.per_rank[0][0].work == 42);
  CHECK(t.per_rank[0][0].t_end == us(1.0));
  CHECK(t.phase_name(t.per_rank[0][1]) == "isend");
  CHECK(t.per_rank[0][1].request == 3);
  CHECK(t.per_rank[0][1].tag == 5);
  // The wait names the message it completed: to rank 1, 8 B; isend at 1 -> inj 1.1008.
  CHECK(t.phase_name(t.per_rank[0][2]) == "wait");
  CHECK(t.per_rank[0][2].peer == 1);
  CHECK(t.per_rank[0][2].bytes == 8);
  CHECK(t.per_rank[0][2].t_begin == us(1.1));
  CHECK(t.per_rank[0][2].t_end == us(1.2));  // max(1.1 + o', inj 1.1008)
  CHECK(t.phase_name(t.per_rank[1][0]) == "recv");
  CHECK(t.per_rank[1][0].t_end == us(1.1008 + 1.008 + 0.1008));
  std::ostringstream json;
  instrument::write_chrome_trace(json, t);
  CHECK(json.str().find("\"name\":\"isend\"") != std::string::npos);
  // Without the option no timeline is kept.
  CHECK(simulate(p, round_machine()).timeline.per_rank.empty());
}

namespace {
// A random program that cannot deadlock: a global sequence of matched steps (a send and its
// receive, blocking or posted-then-waited, eager or rendezvous; a compute; a collective of
// all), each appended to the ranks it involves in that order.
StoredProgram random_program(unsigned seed, int P, int steps) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&](std::uint64_t n) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<std::int64_t>(x % n);
  };
  StoredProgram p;
  p.per_rank.resize(static_cast<std::size_t>(P));
  auto at = [&](std::int64_t r) -> std::vector<Op>& { return p.per_rank[static_cast<std::size_t>(r)]; };
  for (int s = 0; s < steps; ++s) {
    const std::int64_t what = next(10);
    if (what == 0) {
      for (int r = 0; r < P; ++r) at(r).push_back(collective(Collective::allreduce, 8));
      continue;
    }
    if (what < 3) {
      at(next(static_cast<std::uint64_t>(P))).push_back(compute(1e-7 * static_cast<double>(next(50))));
      continue;
    }
    const std::int64_t a = next(static_cast<std::uint64_t>(P));
    const std::int64_t b = (a + 1 + next(static_cast<std::uint64_t>(P - 1))) % P;
    const std::int64_t k = next(2) == 0 ? next(1025) : 1025 + next(8000);
    const int tag = static_cast<int>(next(3));
    if (next(2) == 0) {
      at(a).push_back(send(static_cast<int>(b), k, tag));
    } else {
      at(a).push_back(isend(static_cast<int>(b), k, 5, tag));
      at(a).push_back(compute(1e-7 * static_cast<double>(next(20))));
      at(a).push_back(wait(5));
    }
    if (next(2) == 0) {
      at(b).push_back(recv(static_cast<int>(a), k, tag));
    } else {
      at(b).push_back(irecv(static_cast<int>(a), k, 6, tag));
      at(b).push_back(compute(1e-7 * static_cast<double>(next(20))));
      at(b).push_back(wait(6));
    }
  }
  return p;
}
}  // namespace

TEST_CASE("random programs: causal and time order agree, with and without contention", "[replay]") {
  instrument::replay::Options time_ordered;
  time_ordered.time_ordered = true;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto p = random_program(seed, 2 + static_cast<int>(seed % 7), 300);
    Machine m = round_machine();
    check_same(simulate(p, m), simulate(p, m, time_ordered));
    m.ranks_per_node = 1 + static_cast<int>(seed % 3);
    m.node_bytes_per_second = 5e8;
    check_same(simulate(p, m), simulate(p, m, time_ordered));
  }
}
