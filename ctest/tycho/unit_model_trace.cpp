// The trace model: the program built from hand-made 2-rank histories, and its replay worked
// out by hand on the round machine of instrument's replay tests. In us: o' = 0.1, L = 1,
// g = 0.2, s = 64 B, S = 1024 B; T1(k) = T3(k) = 0.1 + 0.0001 k, T2(k) = 1 + 0.001 k (G_l =
// G_s); an allreduce at 2 ranks is one round of T1 + T2 + T3 of 8 B = 1.2096.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "instrument/replay.hpp"
#include "tycho/model/trace_program.hpp"
// The round machine the replay engine's own timelines are worked out with.
#include "../instrument/unit_replay_program.hpp"

using instrument::replay::Machine;
using instrument::replay::OpKind;
using tycho::MessageRecord;
using tycho::RankHistory;
using tycho::StepRecord;
using tycho::model::trace_model_time;
using tycho::model::trace_program;
using replay_test::round_machine;

namespace {
Approx us(double v) { return Approx(v * 1e-6).epsilon(1e-12).margin(1e-18); }

StepRecord step(std::int32_t iteration, std::int32_t s, std::int64_t work) {
  StepRecord r;
  r.iteration = iteration;
  r.step = s;
  r.work = work;
  return r;
}
MessageRecord message(std::int32_t iteration, std::int32_t s, std::int32_t peer,
                      std::int64_t bytes, bool sent) {
  MessageRecord m;
  m.iteration = iteration;
  m.step = s;
  m.peer = peer;
  m.bytes = bytes;
  m.sent = sent;
  return m;
}

// Per iteration: rank 0 does 3 tasks, sends 100 B to rank 1, then 2 tasks; rank 1 does 1 task,
// receives the 100 B, then 4 tasks.
std::vector<RankHistory> two_steps(std::vector<std::int32_t> iterations) {
  std::vector<RankHistory> h(2);
  for (std::int32_t it : iterations) {
    h[0].steps.push_back(step(it, 0, 3));
    h[0].steps.push_back(step(it, 1, 2));
    h[0].messages.push_back(message(it, 0, 1, 100, true));
    h[1].steps.push_back(step(it, 0, 1));
    h[1].steps.push_back(step(it, 1, 4));
    h[1].messages.push_back(message(it, 0, 0, 100, false));
  }
  return h;
}
}  // namespace

TEST_CASE("TM: the program of two steps", "[tycho][model]") {
  const auto p = trace_program(two_steps({0, 1}), {0, 1}, 1e-6);
  REQUIRE(p.ranks() == 2);
  // rank 0: compute 3, isend, compute 2, allreduce; twice; the requests 0 and 1.
  REQUIRE(p.size(0) == 8);
  CHECK(p.op(0, 0).kind == OpKind::compute);
  CHECK(p.op(0, 0).seconds == Approx(3e-6));
  CHECK(p.op(0, 0).work == 3);
  CHECK(p.op(0, 1).kind == OpKind::isend);
  CHECK(p.op(0, 1).peer == 1);
  CHECK(p.op(0, 1).bytes == 100);
  CHECK(p.op(0, 1).tag == 0);
  CHECK(p.op(0, 1).request == 0);
  CHECK(p.op(0, 3).kind == OpKind::collective);
  CHECK(p.op(0, 3).bytes == 8);
  CHECK(p.op(0, 5).request == 1);
  // rank 1: compute 1, recv, compute 4, allreduce; twice.
  REQUIRE(p.size(1) == 8);
  CHECK(p.op(1, 1).kind == OpKind::recv);
  CHECK(p.op(1, 1).peer == 0);
  CHECK(p.op(1, 1).bytes == 100);
  CHECK(p.op(1, 2).seconds == Approx(4e-6));
}

TEST_CASE("TM: two iterations replayed by hand", "[tycho][model]") {
  // T_elem = 1 us. Rank 0: compute to 3.0; isend at 3.0 returns 3.1, injection at
  //   3.0 + T1(100) = 3.11, T2'(100) = 64 x 0.001 + 36 x 0.001 + 1 = 1.1: arrives 4.21;
  //   compute 2 -> 5.1, allreduce called at 5.1.
  // Rank 1: compute to 1.0; recv returns 4.21 + T3(100) = 4.32; compute 4 -> 8.32.
  // Allreduce: max(5.1, 8.32) + 1.2096 = 9.5296 for both. The second iteration repeats the
  // first from there (rank 0's NIC is free since 3.31): 19.0592 in all.
  const auto t = trace_model_time(two_steps({0, 1}), {0, 1}, 1e-6, round_machine());
  CHECK(t.iterations == 2);
  CHECK(t.total_s == us(19.0592));
  CHECK(t.seconds_per_iteration == us(9.5296));
  CHECK(t.replay.ranks[1].compute == us(10.0));
  CHECK(t.replay.ranks[1].receive == us(2 * 3.32));

  // Only iteration 1 chosen: one iteration, the same time.
  const auto one = trace_model_time(two_steps({0, 1}), {1}, 1e-6, round_machine());
  CHECK(one.iterations == 1);
  CHECK(one.seconds_per_iteration == us(9.5296));

  // A step overhead of 0.5 us: rank 0 sends at 3.5, the data arrives 4.71; rank 1 computes to
  // 1.5, receives at 4.82, computes 4.5 to 9.32; allreduce to 10.5296.
  const auto over = trace_model_time(two_steps({0}), {0}, 1e-6, round_machine(), 0.5e-6);
  CHECK(over.seconds_per_iteration == us(10.5296));
}

TEST_CASE("TM: two messages of one step keep their order and the NIC's gap", "[tycho][model]") {
  // Rank 0, step 0: 1 task, then sends 10 B and 20 B to rank 1. Rank 1, step 0: no task,
  // receives the 10 B, then the 20 B.
  // Rank 0: compute to 1.0; isend 10 B at 1.0: injection 1.0 + 0.101 = 1.101, arrives
  //   1.101 + 1.01 = 2.111, NIC free at max(1.101 + 0.2, 1.101 + 0.01) = 1.301; returns 1.1.
  //   isend 20 B at 1.1: injection max(1.1 + 0.102, 1.301) = 1.301, arrives 2.321; returns 1.2.
  // Rank 1: recv 10 B returns 2.111 + 0.101 = 2.212; recv 20 B max(2.212, 2.321) + 0.102 =
  //   2.423. Allreduce: 2.423 + 1.2096 = 3.6326.
  std::vector<RankHistory> h(2);
  h[0].steps = {step(0, 0, 1)};
  h[0].messages = {message(0, 0, 1, 10, true), message(0, 0, 1, 20, true)};
  h[1].steps = {step(0, 0, 0)};
  h[1].messages = {message(0, 0, 0, 10, false), message(0, 0, 0, 20, false)};
  const auto t = trace_model_time(h, {0}, 1e-6, round_machine());
  CHECK(t.seconds_per_iteration == us(3.6326));
  CHECK(t.replay.ranks[1].receive == us(2.423));
  const auto p = trace_program(h, {0}, 1e-6);
  CHECK(p.size(1) == 3);  // no compute of 0 s: recv, recv, allreduce
}

TEST_CASE("TM: bad histories are refused", "[tycho][model]") {
  auto h = two_steps({0});
  CHECK_THROWS_AS(trace_program(h, {}, 1e-6), std::invalid_argument);
  CHECK_THROWS_AS(trace_program(h, {0}, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(trace_program({}, {0}, 1e-6), std::invalid_argument);
  h[0].messages[0].peer = 0;  // to itself
  CHECK_THROWS_WITH(trace_program(h, {0}, 1e-6),
                    Catch::Contains("a message with peer 0, not another of the 2 ranks"));
  // A receive nobody sent: the engine names it.
  h = two_steps({0});
  h[0].messages.clear();
  CHECK_THROWS_AS(trace_model_time(h, {0}, 1e-6, round_machine()),
                  instrument::replay::ReplayError);
}
