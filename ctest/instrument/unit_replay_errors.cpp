// The replay engine refuses what it cannot replay, naming the rank, the operation and its
// position, and never loops; the machine comes from the probe's file.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/replay.hpp"
#include "unit_replay_program.hpp"

using namespace replay_test;
using instrument::replay::ReplayError;
using instrument::replay::simulate;

namespace {

// The message of the ReplayError simulate throws (checked for its rank and index too).
std::string replay_error(const StoredProgram& p, int rank, std::int64_t index,
                         const Machine& machine = round_machine()) {
  try {
    simulate(p, machine);
  } catch (const ReplayError& e) {
    CHECK(e.rank() == rank);
    CHECK(e.index() == index);
    return e.what();
  }
  FAIL("no ReplayError");
  return "";
}

}  // namespace

TEST_CASE("a receive nobody sends names its rank, op and the partner that ended", "[replay]") {
  const auto p = program({{compute(1e-6), recv(1, 64, 5)}, {send(0, 64, 4)}});
  // Rank 1 sent with tag 4, not 5: rank 0's receive has no match, and rank 1's send neither.
  CHECK(replay_error(p, 0, 1) ==
        "replay: rank 0, op 1 (recv from 1 tag 5, 64 B): no matching send (rank 1 ended)");
}

TEST_CASE("a send nobody receives is reported once every rank has ended", "[replay]") {
  const auto p = program({{send(1, 8, 3)}, {compute(1e-6)}});
  CHECK(replay_error(p, 0, 0) ==
        "replay: rank 0, op 0 (send to 1 tag 3, 8 B): no matching receive (rank 1 ended)");
  // A rendezvous send blocks on it instead: the same report.
  const auto big = program({{send(1, 4096, 3)}, {compute(1e-6)}});
  CHECK(replay_error(big, 0, 0) ==
        "replay: rank 0, op 0 (send to 1 tag 3, 4096 B): no matching receive (rank 1 ended)");
  // A posted receive never matched, waited on: named with the post.
  const auto posted = program({{irecv(1, 8, 2, 1), wait(2)}, {}});
  CHECK(replay_error(posted, 0, 1) ==
        "replay: rank 0, op 1 (wait request 2): the request's rank 0, op 0 (irecv from 1 tag 1, "
        "8 B, request 2) has no matching send (rank 1 ended)");
}

TEST_CASE("two ranks both receiving first deadlock, reported not looped on", "[replay]") {
  const auto p = program({{recv(1, 8), send(1, 8)}, {recv(0, 8), send(0, 8)}});
  CHECK(replay_error(p, 0, 0) ==
        "replay: rank 0, op 0 (recv from 1 tag 0, 8 B): deadlock: no rank can move (also "
        "waiting: rank 1, op 0 (recv from 0 tag 0, 8 B))");
  // Two rendezvous sends first: each waits for the other's receive.
  const auto big = program({{send(1, 4096), recv(1, 4096)}, {send(0, 4096), recv(0, 4096)}});
  CHECK(replay_error(big, 0, 0).find("deadlock: no rank can move") != std::string::npos);
}

TEST_CASE("collectives must be the same on every rank", "[replay]") {
  const auto p = program({{collective(Collective::allreduce, 8)}, {collective(Collective::barrier)}});
  CHECK(replay_error(p, 1, 0) ==
        "replay: rank 1, op 0 (barrier): collective mismatch: as collective number 1 rank 0, op 0 "
        "(allreduce, 8 B) is called instead");
  const auto sizes = program({{collective(Collective::allreduce, 8)}, {collective(Collective::allreduce, 16)}});
  CHECK(replay_error(sizes, 1, 0).find("collective mismatch") != std::string::npos);
  const auto missing = program({{collective(Collective::barrier), collective(Collective::barrier)},
                                {collective(Collective::barrier)}});
  CHECK(replay_error(missing, 0, 1) ==
        "replay: rank 0, op 1 (barrier): rank 1 ended after 1 collectives, without calling this "
        "one (number 2)");
}

TEST_CASE("operations out of range are refused where they are", "[replay]") {
  CHECK(replay_error(program({{send(5, 8)}, {}}), 0, 0) ==
        "replay: rank 0, op 0 (send to 5 tag 0, 8 B): expected a peer rank in [0, 1]");
  CHECK(replay_error(program({{}, {compute(1e-6), recv(0, -1)}}), 1, 1) ==
        "replay: rank 1, op 1 (recv from 0 tag 0, -1 B): expected a message size in [0, 2^50] B");
  CHECK(replay_error(program({{compute(-1.0)}}), 0, 0) ==
        "replay: rank 0, op 0 (compute -1 s): expected a compute cost in [0, 1e9] s");
  CHECK(replay_error(program({{send(0, 8, -2)}}), 0, 0).find("expected a tag >= 0") != std::string::npos);
  CHECK(replay_error(program({{wait(4)}}), 0, 0) ==
        "replay: rank 0, op 0 (wait request 4): wait on request 4, which is not outstanding "
        "(never posted by an isend/irecv, or already waited)");
  CHECK(replay_error(program({{isend(0, 8, 1), isend(0, 8, 1)}}), 0, 1) ==
        "replay: rank 0, op 1 (isend to 0 tag 0, 8 B, request 1): request 1 posted again while "
        "outstanding (op 0 posted it and no wait completed it)");
  CHECK(replay_error(program({{collective(Collective::bcast, 8, 2)}, {}}), 0, 0)
            .find("expected a root rank in [0, 1]") != std::string::npos);
}

TEST_CASE("costs and sizes beyond the documented bounds are refused at their operation", "[replay]") {
  using instrument::replay::kMaxComputeSeconds;
  using instrument::replay::kMaxMessageBytes;
  // A trace's damaged durations (1e306 s each) would sum to inf: the first is refused.
  CHECK(replay_error(program({{compute(1e-6), compute(1e306), compute(1e306)}}), 0, 1) ==
        "replay: rank 0, op 1 (compute 1e+306 s): expected a compute cost in [0, 1e9] s");
  CHECK(replay_error(program({{compute(std::nextafter(kMaxComputeSeconds, 2e9))}}), 0, 0)
            .find("expected a compute cost in [0, 1e9] s") != std::string::npos);
  CHECK(replay_error(program({{compute(std::numeric_limits<double>::quiet_NaN())}}), 0, 0)
            .find("expected a compute cost in [0, 1e9] s") != std::string::npos);
  CHECK(replay_error(program({{}, {send(0, kMaxMessageBytes + 1)}}), 1, 0) ==
        "replay: rank 1, op 0 (send to 0 tag 0, 1125899906842625 B): expected a message size in "
        "[0, 2^50] B");
  CHECK(replay_error(program({{collective(Collective::allreduce, kMaxMessageBytes + 1)}}), 0, 0)
            .find("expected a message size in [0, 2^50] B") != std::string::npos);
  // The bounds themselves are taken: 1e9 s, and 2^50 B sent to itself (rendezvous).
  const auto r = simulate(program({{compute(kMaxComputeSeconds), isend(0, kMaxMessageBytes, 1),
                                    recv(0, kMaxMessageBytes), wait(1)}}),
                          round_machine());
  CHECK(r.ranks[0].compute == kMaxComputeSeconds);
  CHECK(std::isfinite(r.total));
  CHECK(r.total > kMaxComputeSeconds + static_cast<double>(kMaxMessageBytes) * 1e-9);  // G_l = 1 ns/B
}

TEST_CASE("a clock that stops being finite is an error at its operation, not an inf total", "[replay]") {
  // L = 1e308 s: rank 1's receive returns near 1e308, its reply arrives at 2e308 = inf.
  Machine m = round_machine();
  m.net.L = 1e308;
  const auto p = program({{send(1, 8), recv(1, 8)}, {recv(0, 8), send(0, 8)}});
  CHECK(replay_error(p, 0, 1, m) ==
        "replay: rank 0, op 1 (recv from 1 tag 0, 8 B): its clock is no longer finite (inf s at "
        "the end of this operation): the times overflow a double");
  // The same in time order (the reference loop shares the operations).
  instrument::replay::Options time_ordered;
  time_ordered.time_ordered = true;
  CHECK_THROWS_AS(simulate(p, m, time_ordered), ReplayError);
}

TEST_CASE("a machine without a positive o' or with negative terms is refused", "[replay]") {
  const auto p = program({{compute(1e-6)}});
  Machine m = round_machine();
  m.net.o_prime = 0.0;
  CHECK_THROWS_AS(simulate(p, m), std::invalid_argument);
  m = round_machine();
  m.net.G_l = -1e-9;
  CHECK_THROWS_AS(simulate(p, m), std::invalid_argument);
  m = round_machine();
  m.net.L = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(simulate(p, m), std::invalid_argument);
}

TEST_CASE("a stored program names trace events in its errors", "[replay]") {
  auto p = program({{compute(1e-6), recv(1, 64, 5)}, {}});
  p.source_index = {{10, 1234}, {}};
  CHECK(replay_error(p, 0, 1) ==
        "replay: rank 0, op 1 = trace event 1234 (recv from 1 tag 5, 64 B): no matching send "
        "(rank 1 ended)");
  // -1: no event (the reader's computes between events) names the op alone.
  auto c = program({{compute(1e306)}});
  c.source_index = {{-1}};
  CHECK(replay_error(c, 0, 0) ==
        "replay: rank 0, op 0 (compute 1e+306 s): expected a compute cost in [0, 1e9] s");
}

TEST_CASE("machine_from: LogGPS keys, g from loggps.g or o'", "[replay]") {
  const std::string base =
      "format = suite-machine-1\n"
      "loggps.L = 1e-6\nloggps.o_prime = 1e-7\nloggps.O_s = 1e-10\nloggps.O_r = 1e-10\n"
      "loggps.G_s = 1e-9\nloggps.G_l = 1e-9\nloggps.s = 64\nloggps.S = 1024\n";
  const auto from_o = instrument::replay::machine_from(instrument::MachineFile::parse(base, "m"));
  CHECK(from_o.net.S == 1024);
  CHECK(from_o.g == 1e-7);
  CHECK(from_o.g_from.find("o_prime") != std::string::npos);
  CHECK(from_o.ranks_per_node == 0);
  const auto with_g =
      instrument::replay::machine_from(instrument::MachineFile::parse(base + "loggps.g = 3e-7\n", "m"));
  CHECK(with_g.g == 3e-7);
  CHECK(with_g.g_from == "loggps.g");
  try {
    instrument::replay::machine_from(instrument::MachineFile::parse(base + "loggps.g = 2\n", "x.machine"));
    FAIL("g = 2 s accepted");
  } catch (const instrument::InputError& e) {
    CHECK(std::string(e.what()) ==
          "x.machine:loggps.g: expected a gap between injections in [0, 1] s, got 2");
  }
  CHECK_THROWS_AS(instrument::replay::machine_from(instrument::MachineFile::parse(
                      "format = suite-machine-1\nloggps.L = 1e-6\n", "y")),
                  instrument::InputError);
}
