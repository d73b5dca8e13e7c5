// The sweeps' measured critical path in the models' categories (tycho/model/measured_path.hpp),
// on traces written by hand: which time is compute, comm and other, that a receive's wait is
// not charged, that the work between sweeps is never charged to one, and which sweeps are walked.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "instrument/comm.hpp"
#include "tycho/model/measured_path.hpp"
#include "tycho/sweep_phases.hpp"

using instrument::critical_path::Event;
using instrument::critical_path::Trace;
using tycho::model::walk_sweeps;

namespace {

enum Phase { kSweep, kCompute, kSend, kRecv, kSource, kIsend };
constexpr int kTag = 7100;

Trace phases() {
  Trace t;
  t.phases = {tycho::phase::kSweep, tycho::phase::kCompute, instrument::comm_phase::kSend,
              instrument::comm_phase::kRecv, "source", instrument::comm_phase::kIsend};
  return t;
}

Event ev(int phase, double begin, double end, int peer = -1) {
  Event e;
  e.phase = phase;
  e.begin = begin;
  e.end = end;
  e.peer = peer;
  e.tag = peer >= 0 ? kTag : -1;
  e.bytes = peer >= 0 ? 1000 : 0;
  return e;
}

// Two ranks, two sweeps with the source computed between them.
// Sweep 0: rank 0 computes [0, 4], sends to rank 1 [4, 4.5], computes [5, 9], ends at 9.2;
// rank 1 looks for the message from 0 and has it at 6, computes [6, 9.5], ends at 10.
// Its path, backward from rank 1 at 10: other [9.5, 10] (the sweep's own time), compute
// [6, 9.5], comm [4, 6] (the receive from when the send began: [0, 4] was a wait), then on
// rank 0 compute [0, 4]. Compute 7.5, comm 2, other 0.5: 10 in all.
// Sweep 1: rank 0 computes [11, 15], rank 1 [11, 13]: compute 4 on rank 0's path. Rank 0's
// sweep and its one step span the same interval: the sweep, recorded when it ends, after the
// step, encloses it.
Trace two_ranks(int send_phase) {
  Trace t = phases();
  t.ranks.resize(2);
  t.ranks[0] = {ev(kSweep, 0, 9.2),    ev(kCompute, 0, 4), ev(send_phase, 4, 4.5, 1), ev(kCompute, 5, 9),
                ev(kSource, 9.5, 11),  ev(kCompute, 11, 15), ev(kSweep, 11, 15)};
  t.ranks[1] = {ev(kCompute, 6, 9.5),  ev(kRecv, 0, 6, 0), ev(kSweep, 0, 10),  // any order
                ev(kSource, 10, 11),   ev(kSweep, 11, 13), ev(kCompute, 11, 13)};
  return t;
}

}  // namespace

TEST_CASE("measured path: a receive that waited is charged from its send's start", "[tycho][model]") {
  for (const int send : {kSend, kIsend}) {
    const auto path = walk_sweeps(two_ranks(send), {0});
    REQUIRE(path.walked());
    REQUIRE(path.iterations == std::vector<std::int32_t>{0});
    CHECK(path.per_sweep[0].compute == Approx(7.5));
    CHECK(path.per_sweep[0].comm == Approx(2.0));
    CHECK(path.per_sweep[0].other == Approx(0.5));
    CHECK(path.walked_s[0] == Approx(10.0));
    CHECK(path.per_sweep[0].length() == Approx(path.walked_s[0]));
    CHECK(path.unmatched == 0);
  }
}

TEST_CASE("measured path: each sweep alone, the work between sweeps never charged", "[tycho][model]") {
  const auto path = walk_sweeps(two_ranks(kSend), {0, 1});
  REQUIRE(path.per_sweep.size() == 2);
  CHECK(path.per_sweep[1].compute == Approx(4.0));
  CHECK(path.per_sweep[1].comm == 0.0);
  CHECK(path.per_sweep[1].other == 0.0);
  CHECK(path.walked_s[1] == Approx(4.0));
  CHECK(path.mean.compute == Approx((7.5 + 4.0) / 2));
  CHECK(path.mean.comm == Approx(1.0));
  CHECK(path.mean.other == Approx(0.25));
}

TEST_CASE("measured path: only sweeps complete on every rank are walked", "[tycho][model]") {
  SECTION("an iteration past the trace") {
    const auto path = walk_sweeps(two_ranks(kSend), {1, 2});
    CHECK(path.iterations == std::vector<std::int32_t>{1});
  }
  SECTION("a sweep one rank's trace lost") {
    Trace t = two_ranks(kSend);
    t.ranks[1].resize(4);  // rank 1's second sweep dropped past its capacity
    const auto path = walk_sweeps(t, {0, 1});
    CHECK(path.iterations == std::vector<std::int32_t>{0});
    CHECK(path.mean.compute == Approx(7.5));
  }
  SECTION("no trace") {
    Trace t = phases();
    t.ranks.resize(2);
    const auto path = walk_sweeps(t, {0});
    CHECK_FALSE(path.traced);
    CHECK_FALSE(path.walked());
  }
}

TEST_CASE("measured path: one rank has no comm on its path", "[tycho][model]") {
  // Two steps with the loop's bookkeeping between them and after: other, never comm.
  Trace t = phases();
  t.ranks = {{ev(kSweep, 0, 5), ev(kCompute, 0.5, 2), ev(kCompute, 2.5, 4.5)}};
  const auto path = walk_sweeps(t, {0});
  REQUIRE(path.walked());
  CHECK(path.per_sweep[0].comm == 0.0);
  CHECK(path.per_sweep[0].compute == Approx(3.5));
  CHECK(path.per_sweep[0].other == Approx(1.0));  // [2, 2.5] and [4.5, 5]; before the first step is off the walk
  CHECK(path.per_sweep[0].length() == Approx(path.walked_s[0]));
}
