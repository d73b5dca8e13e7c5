// The mesh-specific model (eq. 6) on a 2-rank history written by hand, with T_elem = 2 s and
// T_comm(k) = 1 + 0.01 k s, so every term is a round number.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "tycho/model/msm.hpp"

using tycho::MessageRecord;
using tycho::RankHistory;
using tycho::StepRecord;
using tycho::model::mesh_specific_model;

namespace {
StepRecord step(std::int32_t s, std::int64_t work) {
  StepRecord r;
  r.step = s;
  r.work = work;
  return r;
}
MessageRecord message(std::int32_t s, std::int32_t peer, std::int64_t bytes, bool sent) {
  MessageRecord m;
  m.step = s;
  m.peer = peer;
  m.bytes = bytes;
  m.sent = sent;
  return m;
}
double t_comm(std::int64_t bytes) { return 1.0 + 0.01 * static_cast<double>(bytes); }
}  // namespace

TEST_CASE("MSM: the two maxima of eq. 6, step by step", "[tycho][model]") {
  // rank 0: step 0 work 5, sends 100 B and 50 B (2 + 1.5 = 3.5 s); step 1 work 1; step 2
  //         work 2, sends 10 B (1.1 s); it also received 300 B in step 1 (not charged).
  // rank 1: step 0 work 3, sends 200 B (3 s); step 1 work 4, sends 100 B twice (4 s).
  // max work per step: 5, 4, 2 -> 11 tasks -> compute 22 s.
  // max comm per step: 3.5, 4, 1.1 -> 8.6 s. Total 30.6 s over 3 steps.
  std::vector<RankHistory> h(2);
  h[0].steps = {step(0, 5), step(1, 1), step(2, 2)};
  h[0].messages = {message(0, 1, 100, true), message(0, 1, 50, true),
                   message(1, 1, 300, false), message(2, 1, 10, true)};
  h[1].steps = {step(0, 3), step(1, 4)};
  h[1].messages = {message(0, 0, 100, false), message(0, 0, 200, true),
                   message(1, 0, 100, true), message(1, 0, 100, true)};
  const auto r = mesh_specific_model(h, 0, 2.0, t_comm);
  CHECK(r.steps == 3);
  CHECK(r.sum_max_work == 11);
  CHECK(r.compute_s == Approx(22.0));
  CHECK(r.comm_s == Approx(8.6));
  CHECK(r.total_s == Approx(30.6));
  CHECK(r.bookkeeping_s == 0.0);

  // T_step (ours) once a step of the 3, whatever the step's work: 30.6 + 3 x 0.5 s.
  const auto with_steps = mesh_specific_model(h, 0, 2.0, t_comm, tycho::model::CommCost{}, 0.5);
  CHECK(with_steps.bookkeeping_s == Approx(1.5));
  CHECK(with_steps.compute_s == Approx(22.0));
  CHECK(with_steps.comm_s == Approx(8.6));
  CHECK(with_steps.total_s == Approx(32.1));
  CHECK_THROWS_AS(mesh_specific_model(h, 0, 2.0, t_comm, tycho::model::CommCost{}, -1.0), std::invalid_argument);

  // Another iteration is apart: nothing recorded there.
  const auto none = mesh_specific_model(h, 1, 2.0, t_comm);
  CHECK(none.steps == 0);
  CHECK(none.total_s == 0.0);
}

TEST_CASE("MSM: bad inputs are refused", "[tycho][model]") {
  std::vector<RankHistory> h(1);
  h[0].steps = {step(0, 1)};
  h[0].messages = {message(0, 0, -4, true)};
  CHECK_THROWS_AS(mesh_specific_model(h, 0, 1.0, t_comm), std::invalid_argument);
  h[0].messages.clear();
  CHECK_THROWS_AS(mesh_specific_model(h, 0, -1.0, t_comm), std::invalid_argument);
  CHECK_THROWS_AS(mesh_specific_model(h, 0, 1.0, {}), std::invalid_argument);
  CHECK_THROWS_AS(mesh_specific_model({}, 0, 1.0, t_comm), std::invalid_argument);
  h[0].messages = {message(0, 0, 8, true)};
  CHECK_THROWS_AS(mesh_specific_model(h, 0, 1.0, [](std::int64_t) { return -1.0; }),
                  std::invalid_argument);
}
