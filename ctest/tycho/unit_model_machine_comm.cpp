// T_comm from the probe's machine file: half a ping-pong, on the round machine of
// instrument's replay tests (us: T1(k) = T3(k) = 0.1 + 0.0001 k, T2(k) = 1 + 0.001 k,
// s = 64 B, S = 1024 B, T4 (receiver waiting) = o' + L + o' = 1.2, T5 = 1.2).
#include <catch2/catch.hpp>

#include <stdexcept>

#include "instrument/error.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_file.hpp"
#include "tycho/model/machine_comm.hpp"

namespace {
const char* kMachine =
    "format = suite-machine-1\n"
    "loggps.L = 1e-6\nloggps.o_prime = 1e-7\nloggps.O_s = 1e-10\nloggps.O_r = 1e-10\n"
    "loggps.G_s = 1e-9\nloggps.G_l = 1e-9\nloggps.s = 64\nloggps.S = 1024\n";
Approx us(double v) { return Approx(v * 1e-6).epsilon(1e-12); }
}  // namespace

TEST_CASE("T_comm: one way, end to end, receiver waiting", "[tycho][model]") {
  const auto file = instrument::MachineFile::parse(kMachine, "round.machine");
  const auto t_comm = tycho::model::comm_cost_from_machine(file);
  // 100 B (eager): 0.11 + (64 + 36) 0.001 + 1 + 0.11 = 1.32 us.
  CHECK(t_comm(100) == us(1.32));
  // 2048 B (rendezvous): T4 + T5 + T1 + T2' + T3 = 1.2 + 1.2 + 0.3048 + 3.048 + 0.3048.
  CHECK(t_comm(2048) == us(6.0576));
  // 0 B: 0.1 + 1 + 0.1.
  CHECK(t_comm(0) == us(1.2));
  // Half the round trip the probe measures (Ino's Table 6 with w = 0), eager and rendezvous.
  const auto p = instrument::loggps::read_params(file);
  for (std::int64_t k : {0, 8, 64, 65, 100, 1024, 1025, 2048, 1 << 20}) {
    CHECK(t_comm(k) == Approx(instrument::loggps::round_trip_time(p, k, 0.0) / 2).epsilon(1e-12));
  }
  CHECK_THROWS_AS(t_comm(-1), std::invalid_argument);
}

TEST_CASE("T_comm: a machine file without LogGPS keys is refused naming the key",
          "[tycho][model]") {
  const auto file = instrument::MachineFile::parse("format = suite-machine-1\nloggps.L = 1e-6\n",
                                                   "short.machine");
  CHECK_THROWS_AS(tycho::model::comm_cost_from_machine(file), instrument::InputError);
  CHECK_THROWS_WITH(tycho::model::comm_cost_from_machine(file), Catch::Contains("loggps.o_prime"));
}

TEST_CASE("the machine file is checked whole: keys tycho does not use are refused too",
          "[tycho][model]") {
  const std::string loggp =
      "loggp.L = 1e-6\nloggp.rendezvous_bytes = 8192\nloggp.bands = 1\n"
      "loggp.band.1.upper_bytes = 8191\nloggp.band.1.o = 5e-7\nloggp.band.1.G = 3e-10\n";
  auto message = [](const std::string& text) -> std::string {
    try {
      (void)tycho::model::read_checked_loggps(instrument::MachineFile::parse(text, "m.machine"));
    } catch (const instrument::InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message(kMachine) == "");
  CHECK(message(kMachine + loggp) == "");
  // Lines 2-9 are kMachine's LogGPS keys, 10-15 the LogGP set, 16 the added key.
  CHECK(message(kMachine + loggp + "loggp.max_rel_error_rtt = nan\n") ==
        "m.machine:line 16: expected a finite number for 'loggp.max_rel_error_rtt', got \"nan\"");
  CHECK(message(kMachine + loggp + "probe.late_receiver_delay = inf\n") ==
        "m.machine:line 16: expected a finite number for 'probe.late_receiver_delay', got \"inf\"");
  std::string bad_o = kMachine + loggp;
  bad_o.replace(bad_o.find("loggp.band.1.o = 5e-7"), 21, "loggp.band.1.o = -inf");
  CHECK(message(bad_o) == "m.machine:line 14: expected a finite number for 'loggp.band.1.o', got \"-inf\"");
  // Finite but out of its physical range: named by key, as sweep3d would name it.
  std::string slow = kMachine + loggp;
  slow.replace(slow.find("loggp.L = 1e-6"), 14, "loggp.L = 5");
  CHECK(message(slow) == "m.machine:loggp.L: expected a latency in [0, 1] s, got 5");
}
