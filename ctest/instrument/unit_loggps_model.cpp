// LogGPS model functions (Ino et al. PPoPP'01, Tables 3, 4, 6) against values worked out by
// hand from the Myrinet parameters of Table 5:
//   L = 1.16 us, o' = 6.55 us, O_s = 6.86 ns/B, O_r = 2.57 ns/B, G_s = 15.48 ns/B,
//   G_l = -0.74 ns/B, s = 8191 B, S = 16383 B.
// Every expected value below is in ns, computed by hand (shown), never by the code under test.
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "instrument/error.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_file.hpp"

using namespace instrument;
using namespace instrument::loggps;

namespace {

LogGpsParams myrinet() {
  LogGpsParams p;
  p.L = 1.16e-6;
  p.o_prime = 6.55e-6;
  p.O_s = 6.86e-9;
  p.O_r = 2.57e-9;
  p.G_s = 15.48e-9;
  p.G_l = -0.74e-9;
  p.s = 8191;
  p.S = 16383;
  return p;
}

Approx ns(double v) { return Approx(v * 1e-9).epsilon(1e-9); }

}  // namespace

TEST_CASE("Table 3 terms, Myrinet", "[loggps]") {
  const auto p = myrinet();
  // k = 0: T1 = o' = 6550; T2 = L = 1160; T3 = o' = 6550.
  CHECK(T1(p, 0) == ns(6550));
  CHECK(T2(p, 0) == ns(1160));
  CHECK(T3(p, 0) == ns(6550));
  // k = 1000: T1 = 6550 + 6860 = 13410; T2 = 15480 + 1160 = 16640; T3 = 6550 + 2570 = 9120.
  CHECK(T1(p, 1000) == ns(13410));
  CHECK(T2(p, 1000) == ns(16640));
  CHECK(T3(p, 1000) == ns(9120));
  // k = s = 8191 still single packet: T2 = 8191 * 15.48 + 1160 = 126796.68 + 1160.
  CHECK(T2_for(p, 8191) == ns(127956.68));
  // k = S = 16383: T2' = s G_s + (k - s) G_l + L = 126796.68 - 8192 * 0.74 + 1160
  //              = 126796.68 - 6062.08 + 1160 = 121894.60.
  CHECK(T2_prime(p, 16383) == ns(121894.60));
  CHECK(T2_for(p, 16383) == ns(121894.60));
  // T2' is continuous with T2 at k = s (§4.3): T2'(s) = s G_s + L.
  CHECK(T2_prime(p, 8191) == ns(127956.68));
  // T4 = max(o' + L, t_r - t_s) + o': receiver early -> 7710 + 6550 = 14260;
  // receiver 100 us late -> 100000 + 6550 = 106550. T5 = 2 o' + L = 14260.
  CHECK(T4(p, 0.0) == ns(14260));
  CHECK(T4(p, -5e-6) == ns(14260));
  CHECK(T4(p, 100e-6) == ns(106550));
  CHECK(T5(p) == ns(14260));
}

TEST_CASE("communication cost eq. (1)-(3), Myrinet", "[loggps]") {
  const auto p = myrinet();
  // k = 0: 6550 + 1160 + 6550.
  CHECK(communication_cost(p, 0) == ns(14260));
  // k = 1000 (eq. 1): 13410 + 16640 + 9120.
  CHECK(communication_cost(p, 1000) == ns(39170));
  // k = s (eq. 1): T1 = 6550 + 8191 * 6.86 = 62740.26; T3 = 6550 + 8191 * 2.57 = 27600.87;
  // 62740.26 + 127956.68 + 27600.87 = 218297.81.
  CHECK(communication_cost(p, 8191) == ns(218297.81));
  // k = S (eq. 2, still asynchronous): T1 = 6550 + 16383 * 6.86 = 118937.38;
  // T3 = 6550 + 16383 * 2.57 = 48654.31; 118937.38 + 121894.60 + 48654.31 = 289486.29.
  // (§4.5 of the paper quotes "288 us" for an S-byte message on Myrinet: same to 0.6%.)
  CHECK(communication_cost(p, 16383) == ns(289486.29));
  CHECK_FALSE(is_synchronous(p, 16383));
  // k = S + 1 = 16384 (eq. 3): T1 = 118944.24, T2' = 121893.86, T3 = 48656.88 (sum 289494.98)
  // + T4 + T5 = 14260 + 14260 -> 318014.98.
  CHECK(is_synchronous(p, 16384));
  CHECK(communication_cost(p, 16384) == ns(318014.98));
  // Receiver posts 100 us after the send: T4 = 106550 -> 106550 + 14260 + 289494.98.
  CHECK(communication_cost(p, 16384, 100e-6) == ns(410304.98));
}

TEST_CASE("MPI routine costs, Table 4, Myrinet", "[loggps]") {
  const auto p = myrinet();
  // (4) k <= S: T1.
  CHECK(mpi_send_cost(p, 1000) == ns(13410));
  CHECK(mpi_send_cost(p, 16383) == ns(118937.38));
  // (5) k > S: T4 + T5 + T1 = 14260 + 14260 + 118944.24.
  CHECK(mpi_send_cost(p, 16384) == ns(147464.24));
  // ... and a late receiver (100 us) makes the send wait: 106550 + 14260 + 118944.24.
  CHECK(mpi_send_cost(p, 16384, 100e-6) == ns(239754.24));
  // (6), (10)
  CHECK(mpi_isend_cost(p) == ns(6550));
  CHECK(mpi_irecv_cost(p) == ns(6550));
  // (7) k = 1000, receive called with the send: max(13410 + 16640, 0) + 9120 = 39170;
  // called 50 us later, the message is there: max(30050 - 50000, 0) + 9120 = 9120.
  CHECK(mpi_recv_cost(p, 1000, 0.0) == ns(39170));
  CHECK(mpi_recv_cost(p, 1000, 50e-6) == ns(9120));
  // (8) k = S: max(118937.38 + 121894.60, 0) + 48654.31.
  CHECK(mpi_recv_cost(p, 16383, 0.0) == ns(289486.29));
  // (9) k = S + 1, dt = 0: (o' + L) + o' + T5 + T1 + T2' + T3 = 7710 + 6550 + 14260 + 289494.98.
  CHECK(mpi_recv_cost(p, 16384, 0.0) == ns(318014.98));
  // dt = 20 us: the REQ is already there: 0 + 6550 + 14260 + 289494.98.
  CHECK(mpi_recv_cost(p, 16384, 20e-6) == ns(310304.98));
  // (11) T_blk = 39170 (the receive above); waited after 10 us: 29170; after 50 us: o'.
  CHECK(mpi_wait_cost(p, 39170e-9, 10e-6) == ns(29170));
  CHECK(mpi_wait_cost(p, 39170e-9, 50e-6) == ns(6550));
}

TEST_CASE("round-trip time, Table 6 and the §4.3 equations, Myrinet", "[loggps]") {
  const auto p = myrinet();
  // k = 0, w = 0: 4o' + 2L = 26200 + 2320 = 28520 (paper: 2.850902e4 ns, from rounded params).
  CHECK(round_trip_time(p, 0, 0.0) == ns(28520));
  // k = 0, w = W = 500 us: 2o' + W = 513100 (paper: 5.130990e5 ns).
  CHECK(round_trip_time(p, 0, 500e-6) == ns(513100));
  // eq. (12) k = 1000, w = 0: (13410 + 2 * 16640 + 9120) + 13410 + 9120 = 78340 = 2 x 39170.
  CHECK(round_trip_time(p, 1000, 0.0) == ns(78340));
  // slope at w = W, k <= S is O_s + O_r = 9.43 ns/B (paper: 9.430108):
  // RTT(1000, W) = 500000 + 13410 + 9120 = 522530.
  CHECK(round_trip_time(p, 1000, 500e-6) == ns(522530));
  // eq. (13) k = S, w = 0: 2 x 289486.29.
  CHECK(round_trip_time(p, 16383, 0.0) == ns(578972.58));
  // eq. (14) k = S + 1, w = 0: max(T2' + T3 + o' + L, 0) + 2T1 + T2' + T3 + 2T4 + 2T5 - (o' + L)
  //   = (121893.86 + 48656.88 + 7710) + 237888.48 + 121893.86 + 48656.88 + 28520 + 28520 - 7710
  //   = 636029.96 = 2 x 318014.98.
  CHECK(round_trip_time(p, 16384, 0.0) == ns(636029.96));
  // eq. (14) w = W: 500000 + 237888.48 + 170550.74 + 57040 - 7710 = 957769.22.
  CHECK(round_trip_time(p, 16384, 500e-6) == ns(957769.22));
  // §4.3: slope at w = W, k > S is 2O_s + O_r + G_l = 15.55 ns/B (paper: 1.554669e1).
  const double slope = (round_trip_time(p, 17384, 500e-6) - round_trip_time(p, 16384, 500e-6)) / 1000;
  CHECK(slope == Approx(15.55e-9).epsilon(1e-9));
}

TEST_CASE("extension 2: the handshake H and a send that returns after the transfer", "[loggps]") {
  auto p = myrinet();
  p.H = 2e-6;
  // T5 = o' + L + o' + H = 14260 + 2000.
  CHECK(T5(p) == ns(16260));
  // (5) k = S + 1, receiver on time: T4 + T5 + T1 = 14260 + 16260 + 118944.24.
  CHECK(mpi_send_cost(p, 16384) == ns(149464.24));
  // (9) dt = 0: 318014.98 + 2000 (H is in T5).
  CHECK(mpi_recv_cost(p, 16384, 0.0) == ns(320014.98));
  p.send_returns = SendReturns::after_transfer;
  // The send returns once its data is in: + T2'(16384) = 121893.86.
  CHECK(mpi_send_cost(p, 16384) == ns(271358.10));
  CHECK(send_return_after_injection(p, 16384) == ns(240838.10));  // T1 + T2'
  // Below S nothing changes: T1.
  CHECK(mpi_send_cost(p, 16383) == ns(118937.38));
  CHECK(send_return_after_injection(p, 16383) == ns(118937.38));
  // eq. (14), w = 0: P1 receives as before, so only H shows: 636029.96 + 2 x 2000.
  CHECK(round_trip_time(p, 16384, 0.0) == ns(640029.96));
  // w = W: P0 starts its delay T2' later: 957769.22 + 4000 + 121893.86.
  CHECK(round_trip_time(p, 16384, 500e-6) == ns(1083663.08));
}

TEST_CASE("extension 2 round-trips through the machine file; absent keys read as the paper", "[loggps]") {
  auto p = myrinet();
  p.gap_steps = {{32768, 1.0e-9}, {1 << 20, 2.5e-10}};  // Table 5 alone has T2' < 0 (validate)
  p.H = 1.25e-6;
  p.send_returns = SendReturns::after_transfer;
  MachineFile f;
  write_params(p, f);
  const auto q = read_params(MachineFile::parse(f.text(), "mem"));
  CHECK(q.H == p.H);
  CHECK(q.send_returns == SendReturns::after_transfer);
  // A file written before extension 2 (no loggps.H, no loggps.rendezvous_send).
  std::string old_text;
  for (const std::string& line : {std::string("format = suite-machine-1"), std::string("loggps.L = 1.16e-6"),
                                  std::string("loggps.o_prime = 6.55e-6"), std::string("loggps.O_s = 6.86e-9"),
                                  std::string("loggps.O_r = 2.57e-9"), std::string("loggps.G_s = 15.48e-9"),
                                  std::string("loggps.G_l = 0.74e-9"), std::string("loggps.s = 8191"),
                                  std::string("loggps.S = 16383")})
    old_text += line + "\n";
  const auto r = read_params(MachineFile::parse(old_text, "old.machine"));
  CHECK(r.H == 0.0);
  CHECK(r.send_returns == SendReturns::after_injection);
  try {
    read_params(MachineFile::parse(old_text + "loggps.rendezvous_send = later\n", "bad.machine"));
    FAIL("an unknown rule was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("loggps.rendezvous_send") != std::string::npos);
    CHECK(std::string(e.what()).find("after_injection or after_transfer") != std::string::npos);
  }
  try {
    read_params(MachineFile::parse(old_text + "loggps.H = -1e-6\n", "bad.machine"));
    FAIL("a negative H was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("loggps.H") != std::string::npos);
  }
}

TEST_CASE("gap steps extend G_l piecewise and keep T2' continuous", "[loggps]") {
  auto p = myrinet();
  p.gap_steps = {{32768, 1.0e-9}};
  // k = 65536: s G_s + (32768 - 8191) G_l + (65536 - 32768) x 1 + L
  //          = 126796.68 - 18186.98 + 32768 + 1160 = 142537.70.
  CHECK(T2_prime(p, 65536) == ns(142537.70));
  // At the step itself nothing changes: 126796.68 - 18186.98 + 1160 = 109769.70.
  CHECK(T2_prime(p, 32768) == ns(109769.70));
  // Below the step the paper's model is untouched.
  CHECK(T2_prime(p, 16383) == ns(121894.60));
}

TEST_CASE("LogGPS parameters round-trip through the machine file", "[loggps]") {
  auto p = myrinet();
  p.gap_steps = {{32768, 1.0e-9}, {1 << 20, 2.5e-10}};
  MachineFile f;
  write_params(p, f);
  const auto q = read_params(MachineFile::parse(f.text(), "mem"));
  CHECK(q.L == p.L);
  CHECK(q.o_prime == p.o_prime);
  CHECK(q.O_s == p.O_s);
  CHECK(q.O_r == p.O_r);
  CHECK(q.G_s == p.G_s);
  CHECK(q.G_l == p.G_l);
  CHECK(q.s == 8191);
  CHECK(q.S == 16383);
  REQUIRE(q.gap_steps.size() == 2);
  CHECK(q.gap_steps[1].above_bytes == (1 << 20));
  CHECK(q.gap_steps[1].G == 2.5e-10);
}

TEST_CASE("LogGPS read from a file missing a key names the key", "[loggps]") {
  const auto f = MachineFile::parse("format = suite-machine-1\nloggps.L = 1e-6\n", "m.machine");
  try {
    read_params(f);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("m.machine") != std::string::npos);
    CHECK(std::string(e.what()).find("loggps.o_prime") != std::string::npos);
  }
  const auto g = MachineFile::parse(
      "format = suite-machine-1\nloggps.L = 1\nloggps.o_prime = 1\nloggps.O_s = 0\nloggps.O_r = 0\n"
      "loggps.G_s = 0\nloggps.G_l = 0\nloggps.s = 1.5\nloggps.S = 10\n", "b.machine");
  CHECK_THROWS_AS(read_params(g), InputError);  // s is not a whole number of bytes
}

TEST_CASE("LogGPS constraints: every T_i > 0 from 1 B to 16 MiB", "[loggps]") {
  auto with_steps = myrinet();
  with_steps.gap_steps = {{32768, 1.0e-9}};
  CHECK_NOTHROW(validate(with_steps, "ok"));

  // Table 5's Myrinet itself: T2'(k) = 127956.68 - 0.74 (k - 8191) ns < 0 from 181105 B; the
  // first size checked above it is 262144 B: 127956.68 - 187925.22 = -59968.54 ns.
  CHECK_THROWS_WITH(validate(myrinet(), "m"), "m:loggps.G_l: T2'(262144 B) = -59.9685 us: expected > 0");

  // A negative gap step: T2'(32768) = 109769.70 ns (see above), then -20 ns/B:
  // T2'(65536) = 109769.70 - 655360 = -545590.30 ns.
  auto neg_step = myrinet();
  neg_step.gap_steps = {{32768, -20e-9}};
  CHECK_THROWS_WITH(validate(neg_step, "m"), "m:loggps.gap_step.1.G: T2'(65536 B) = -545.59 us: expected > 0");

  // A negative O_r is outside its range: a byte never makes the receive call cheaper (T3 would
  // fall below zero from k = o'/|O_r|).
  auto neg_Or = with_steps;
  neg_Or.O_r = -1e-9;
  CHECK_THROWS_WITH(validate(neg_Or, "m"), "m:loggps.O_r: expected an overhead per byte in [0, 1e-06] s/B, got -1e-09");
}

TEST_CASE("hand-edited LogGPS files that break a constraint are refused, the key named", "[loggps]") {
  auto text = [](const std::string& L, const std::string& O_r, const std::string& step_G) {
    return "format = suite-machine-1\nloggps.L = " + L + "\nloggps.o_prime = 6.55e-6\nloggps.O_s = 6.86e-9\n"
           "loggps.O_r = " + O_r + "\nloggps.G_s = 15.48e-9\nloggps.G_l = -0.74e-9\nloggps.s = 8191\n"
           "loggps.S = 16383\nloggps.gap_steps = 1\nloggps.gap_step.1.above_bytes = 32768\n"
           "loggps.gap_step.1.G = " + step_G + "\n";
  };
  auto refusal = [](const std::string& t) {
    try {
      read_params(MachineFile::parse(t, "hand.machine"));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refusal(text("1.16e-6", "2.57e-9", "1e-9")).empty());
  CHECK(refusal(text("1.16e-6", "2.57e-9", "-20e-9")) ==
        "hand.machine:loggps.gap_step.1.G: T2'(65536 B) = -545.59 us: expected > 0");
  CHECK(refusal(text("1.16e-6", "-1e-9", "1e-9")) == "hand.machine:loggps.O_r: expected an overhead per byte in [0, 1e-06] s/B, got -1e-09");
  CHECK(refusal(text("-1e-8", "2.57e-9", "1e-9")) == "hand.machine:loggps.L: expected a latency in [0, 1] s, got -1e-08");
  CHECK(refusal(text("1.16e-6", "nan", "1e-9")).find("hand.machine:line 5") == 0);
  CHECK(refusal(text("1.16e-6", "inf", "1e-9")) == "hand.machine:loggps.O_r: expected an overhead per byte in [0, 1e-06] s/B, got inf");
}

TEST_CASE("every LogGPS number is checked against its physical range, the range named", "[loggps]") {
  auto refusal = [](const LogGpsParams& p) {
    try {
      validate(p, "m");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto p = myrinet();
  p.gap_steps = {{32768, 1.0e-9}};
  REQUIRE(refusal(p).empty());
  auto q = p;
  q.L = 1.5;
  CHECK(refusal(q) == "m:loggps.L: expected a latency in [0, 1] s, got 1.5");
  q = p;
  q.o_prime = std::numeric_limits<double>::infinity();
  CHECK(refusal(q) == "m:loggps.o_prime: expected an overhead in [0, 1] s, got inf");
  q = p;
  q.o_prime = 0.0;  // in the range, but MPI_Isend costs o'
  CHECK(refusal(q) == "m:loggps.o_prime: expected an overhead > 0 s (MPI_Isend costs o'), got 0");
  q = p;
  q.G_s = -1e-9;
  CHECK(refusal(q) == "m:loggps.G_s: expected a gap per byte in [0, 1e-06] s/B, got -1e-09");
  q = p;
  q.G_l = -2e-6;  // negative is allowed (Table 5) but not this much
  CHECK(refusal(q) == "m:loggps.G_l: expected a gap per byte in [-1e-06, 1e-06] s/B, got -2e-06");
  q = p;
  q.S = std::int64_t{1} << 41;
  CHECK(refusal(q) == "m:loggps.S: expected a message size in [0, 1099511627776] B, got 2199023255552");
  q = p;
  q.gap_steps.assign(65, GapStep{0, 0.0});
  CHECK(refusal(q) == "m:loggps.gap_steps: expected a number of gap steps in [0, 64], got 65");
}
