// A send that finds the peer's message waiting (issue 39): the share of a step's sends from its
// counts, the GM and MSM comm terms with it, and T_msg of such a message from the machine file's
// loggp.pending.* figures, each worked by hand.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "instrument/loggp_pending.hpp"
#include "instrument/machine_file.hpp"
#include "tycho/model/gm.hpp"
#include "tycho/model/machine_comm.hpp"
#include "tycho/model/msm.hpp"

using tycho::MessageRecord;
using tycho::RankHistory;
using tycho::StepRecord;
using namespace tycho::model;

namespace {
MessageRecord message(std::int32_t s, std::int32_t peer, std::int64_t bytes, bool sent) {
  MessageRecord m;
  m.step = s;
  m.peer = peer;
  m.bytes = bytes;
  m.sent = sent;
  return m;
}
StepRecord step(std::int32_t s, std::int64_t work) {
  StepRecord r;
  r.step = s;
  r.work = work;
  return r;
}
double t_comm(std::int64_t bytes) { return 1.0 + 0.01 * static_cast<double>(bytes); }
double t_waiting(std::int64_t bytes) { return 3.0 + 0.01 * static_cast<double>(bytes); }  // 2 s more
}  // namespace

TEST_CASE("waiting sends: 1 - 2^-receives of a step that sends", "[tycho][model]") {
  CHECK(waiting_sends_in_step(1, 1) == Approx(0.5));
  CHECK(waiting_sends_in_step(3, 2) == Approx(0.75));
  CHECK(waiting_sends_in_step(2, 3) == Approx(0.875));
  CHECK(waiting_sends_in_step(0, 2) == 0.0);
  CHECK(waiting_sends_in_step(2, 0) == 0.0);
}

TEST_CASE("MSM: a step's first send priced waiting for its share", "[tycho][model]") {
  // rank 0: step 0 sends 100 B and 50 B, receives 1 -> 2 + 1.5 + 0.5 x 2 = 4.5 s;
  //         step 1 sends 10 B, receives nothing -> 1.1 s.
  // rank 1: step 0 sends 200 B, receives 2 -> 3 + 0.75 x 2 = 4.5 s; step 1 nothing.
  // comm = max(4.5, 4.5) + 1.1 = 5.6 s; waiting sends 0.5 + 0.75 of 4 sends.
  std::vector<RankHistory> h(2);
  h[0].steps = {step(0, 1), step(1, 1)};
  h[0].messages = {message(0, 1, 100, true), message(0, 1, 50, true), message(0, 1, 200, false),
                   message(1, 1, 10, true)};
  h[1].steps = {step(0, 1), step(1, 1)};
  h[1].messages = {message(0, 0, 200, true), message(0, 0, 100, false), message(0, 0, 50, false)};
  const auto r = mesh_specific_model(h, 0, 0.0, t_comm, t_waiting);
  CHECK(r.comm_s == Approx(5.6));
  CHECK(r.sends == 4);
  CHECK(r.waiting_sends == Approx(1.25));
  // Without the waiting price: 3.5 + 1.1 = 4.6 s, as before.
  CHECK(mesh_specific_model(h, 0, 0.0, t_comm).comm_s == Approx(4.6));
  CHECK(mesh_specific_model(h, 0, 0.0, t_comm, CommCost{}).waiting_sends == 0.0);
}

TEST_CASE("GM: 1 - 2^-|N_c| of each step's sends priced waiting", "[tycho][model]") {
  // 2 x 2 x 2 grid as unit_model_gm: 13 steps, 3 neighbours, T_comm(5600 B) = 6.6 us; waiting
  // 9.6 us (3 us more) for 1 - 1/8 = 0.875 a step: comm = 13 x (3 x 6.6 + 0.875 x 3) = 291.525 us.
  GmInputs in;
  in.cells = 8000;
  in.ranks = 8;
  in.directions = 8;
  in.mcps = 1000;
  in.pce = 0.8;
  in.bytes_per_boundary_cell_angle = 56;
  in.t_elem = [](double, double) { return 1e-7; };
  in.t_comm = [](std::int64_t bytes) { return 1e-6 + 1e-9 * static_cast<double>(bytes); };
  in.t_comm_waiting = [](std::int64_t bytes) { return 4e-6 + 1e-9 * static_cast<double>(bytes); };
  const auto r = general_model(in);
  CHECK(r.waiting_sends_per_step == Approx(0.875));
  CHECK(r.t_comm_waiting_s == Approx(9.6e-6));
  CHECK(r.comm_s == Approx(291.525e-6));
  in.t_comm_waiting = nullptr;
  CHECK(general_model(in).comm_s == Approx(257.4e-6));
}

TEST_CASE("T_msg waiting: MPI_Bsend and the receive from loggp.pending, linear in bytes", "[tycho][model]") {
  // Points 64 B and 1024 B: bsend_pending 1 and 2 us, receive_pending 0.2 and 0.4 us. At 544 B
  // (halfway): 1.5 + 0.3 = 1.8 us, plus 544 / 56 records x 0.05 us = 0.4857 us -> 2.2857 us.
  instrument::loggp::PendingCosts c;
  instrument::loggp::PendingPoint a, b;
  a.bytes = 64;
  a.bsend_pending = 1e-6;
  a.receive_pending = 0.2e-6;
  b.bytes = 1024;
  b.bsend_pending = 2e-6;
  b.receive_pending = 0.4e-6;
  c.points = {a, b};
  PathMessagePrice price;
  price.loggps.S = 8192;
  price.record_bytes = 56;
  price.unpack_s_per_record = 0.05e-6;
  price.unpack_priced = true;
  price.pending = c;
  const CommCost w = path_message_cost_waiting(price);
  CHECK(w(544) == Approx(2.2857142857e-6));
  CHECK(price.describe_waiting(544, 1, 4).find("25% of sends") != std::string::npos);
  // Below the smallest: its figures; above the largest: a plain message.
  CHECK(price.send_call_waiting(8) == Approx(1e-6));
  CHECK(price.send_call_waiting(2048) == Approx(price.send_call(2048)));
  CHECK(price.describe_waiting(2048, 1, 4).find("priced as none") != std::string::npos);
  // The non-blocking mode (MPI_Isend): not measured, a plain message.
  price.pending_buffered = false;
  CHECK(path_message_cost_waiting(price)(544) == Approx(path_message_cost(price)(544)));
  price.unpack_s_per_record = -1;
  CHECK_THROWS_AS(path_message_cost_waiting(price), std::invalid_argument);
}
