// T_msg, a message as the sweep's critical path holds it (machine_comm.hpp): the send call,
// the receive call and the unpack of its records, worked by hand on a LogGP machine of round
// numbers (us): bands o = 0.3, G = 2e-4 up to 8191 B and o = 0.5, G = 1e-4 above, handshake
// from 8192 B, L = 1; records of 56 B (2 groups); T_unpack = 0.05.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "instrument/machine_file.hpp"
#include "tycho/model/machine_comm.hpp"
#include "tycho/model/msm.hpp"

using tycho::model::PathMessagePrice;

namespace {
const char* kLogGps =
    "format = suite-machine-1\n"
    "loggps.L = 1e-6\nloggps.o_prime = 1e-7\nloggps.O_s = 1e-10\nloggps.O_r = 1e-10\n"
    "loggps.G_s = 1e-9\nloggps.G_l = 1e-9\nloggps.s = 64\nloggps.S = 1024\n";
const char* kLogGp =
    "loggp.L = 1e-6\nloggp.rendezvous_bytes = 8192\nloggp.bands = 2\n"
    "loggp.band.1.upper_bytes = 8191\nloggp.band.1.o = 3e-7\nloggp.band.1.G = 2e-10\n"
    "loggp.band.2.upper_bytes = 1048576\nloggp.band.2.o = 5e-7\nloggp.band.2.G = 1e-10\n";
Approx us(double v) { return Approx(v * 1e-6).epsilon(1e-9); }

PathMessagePrice price_from(const std::string& text, double unpack_s) {
  const auto file = instrument::MachineFile::parse(text, "round.machine");
  PathMessagePrice p;
  p.loggps = tycho::model::read_checked_loggps(file);
  p.loggp = tycho::model::read_loggp_if_any(file);
  p.record_bytes = 56;
  p.unpack_s_per_record = unpack_s;
  p.unpack_priced = unpack_s > 0;
  p.unpack_source = "T_unpack measured by cal.h5";
  return p;
}
}  // namespace

TEST_CASE("T_msg: send call + receive call + records x T_unpack, by hand", "[tycho][model]") {
  const PathMessagePrice p = price_from(std::string(kLogGps) + kLogGp, 5e-8);
  const auto t = tycho::model::path_message_cost(p);
  // 8 records of 56 B = 448 B, eager: o + o + 8 x 0.05 = 0.3 + 0.3 + 0.4 = 1.0 us.
  CHECK(p.send_call(448) == us(0.3));
  CHECK(p.receive_call(448) == us(0.3));
  CHECK(t(448) == us(1.0));
  // One record: 0.3 + 0.3 + 0.05.
  CHECK(t(56) == us(0.65));
  // 16384 B, past the handshake: the buffered send copies and returns, o + X = 0.5 + 1.6384;
  // the receive is eq. 4b, o_s + L + o + X + L + o = 0.3 + 1 + 0.5 + 1.6384 + 1 + 0.5; the
  // unpack 16384 / 56 records x 0.05.
  CHECK(p.send_call(16384) == us(2.1384));
  CHECK(p.receive_call(16384) == us(4.9384));
  CHECK(t(16384) == us(2.1384 + 4.9384 + 16384.0 / 56 * 0.05));
  // The row's text names the figures.
  CHECK_THAT(p.describe(448), Catch::Contains("LogGP") && Catch::Contains("448 B") &&
                                  Catch::Contains("send call 0.3 us") && Catch::Contains("receive call 0.3 us") &&
                                  Catch::Contains("8 records x T_unpack 0.05 us") && Catch::Contains("cal.h5"));
}

TEST_CASE("T_msg: without a measured T_unpack the unpack is left out and the text says so", "[tycho][model]") {
  const PathMessagePrice p = price_from(std::string(kLogGps) + kLogGp, 0);
  CHECK(tycho::model::path_message_cost(p)(448) == us(0.6));
  CHECK_THAT(p.describe(448), Catch::Contains("the unpack is not priced"));
}

TEST_CASE("T_msg: a machine file with LogGPS only prices the calls as T1 and T3", "[tycho][model]") {
  const PathMessagePrice p = price_from(kLogGps, 5e-8);
  CHECK_FALSE(p.loggp.has_value());
  // T1 = T3 = o' + k O = 0.1 + 0.0448 us at 448 B; + 8 x 0.05.
  CHECK(tycho::model::path_message_cost(p)(448) == us(0.1448 + 0.1448 + 0.4));
  CHECK_THAT(p.describe(448), Catch::Contains("LogGPS T1, T3"));
}

TEST_CASE("T_msg in the MSM: a step with k records of s bytes costs o_s + o_r + k T_unpack", "[tycho][model]") {
  // One rank of two steps: 5 records in step 0, 10 in step 1, each of 56 B; T_elem 0.
  std::vector<tycho::RankHistory> h(1);
  for (std::int32_t s : {0, 1}) {
    tycho::StepRecord r;
    r.step = s;
    r.work = 1;
    h[0].steps.push_back(r);
    tycho::MessageRecord m;
    m.step = s;
    m.peer = 1;
    m.bytes = 56 * (s == 0 ? 5 : 10);
    h[0].messages.push_back(m);
  }
  const auto t = tycho::model::path_message_cost(price_from(std::string(kLogGps) + kLogGp, 5e-8));
  const auto msm = tycho::model::mesh_specific_model(h, 0, 0.0, t);
  // (0.3 + 0.3 + 5 x 0.05) + (0.3 + 0.3 + 10 x 0.05) = 0.85 + 1.1 us.
  CHECK(msm.comm_s == us(1.95));
}

TEST_CASE("T_msg refuses a bad size, record size or T_unpack", "[tycho][model]") {
  PathMessagePrice p = price_from(std::string(kLogGps) + kLogGp, 5e-8);
  CHECK_THROWS_AS(tycho::model::path_message_cost(p)(-1), std::invalid_argument);
  p.record_bytes = 0;
  CHECK_THROWS_WITH(tycho::model::path_message_cost(p), Catch::Contains("bytes per face record"));
  p.record_bytes = 56;
  p.unpack_s_per_record = -1e-9;
  CHECK_THROWS_WITH(tycho::model::path_message_cost(p), Catch::Contains("T_unpack"));
  p.unpack_s_per_record = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(tycho::model::path_message_cost(p), Catch::Contains("T_unpack"));
}

// The blocking mode's MPI_Bsend extra (0.2 us a call + 0.5 ns a byte, bsend_probe.hpp) and
// the unpack's fixed part (0.25 us a message, unpack_probe.hpp), on the same machine.
TEST_CASE("T_msg with MPI_Bsend's extra and a message's unpack, by hand", "[tycho][model]") {
  PathMessagePrice p = price_from(std::string(kLogGps) + kLogGp, 5e-8);
  p.unpack_s_per_message = 2.5e-7;
  p.unpack_message_priced = true;
  p.bsend_priced = true;
  p.bsend_s_per_call = 2e-7;
  p.bsend_s_per_byte = 5e-10;
  p.bsend_source = "measured by cal.h5";
  const auto t = tycho::model::path_message_cost(p);
  // 448 B: send o + 0.2 + 448 x 0.0005 = 0.3 + 0.424 = 0.724; receive 0.3; unpack
  // 8 x 0.05 + 0.25 = 0.65: 1.674 us.
  CHECK(p.bsend_extra(448) == us(0.424));
  CHECK(p.send_call(448) == us(0.724));
  CHECK(p.unpack(448) == us(0.65));
  CHECK(t(448) == us(1.674));
  // 16384 B, past the handshake: o + X + extra = 2.1384 + 0.2 + 8.192; receive 4.9384; unpack
  // 16384 / 56 x 0.05 + 0.25.
  CHECK(t(16384) == us(10.5304 + 4.9384 + 16384.0 / 56 * 0.05 + 0.25));
  // No bytes, no message to unpack: 0.3 + 0.2 + 0.3.
  CHECK(t(0) == us(0.8));
  CHECK_THAT(p.describe(448), Catch::Contains("8 records x T_unpack 0.05 us + T_unpack a message 0.25 us") &&
                                  Catch::Contains("MPI_Bsend's extra 0.424 us (0.2 us a call + 0.5 ns a byte)") &&
                                  Catch::Contains("(measured by cal.h5)"));
  // The LogGPS-only file: T1 + the extra.
  PathMessagePrice q = price_from(kLogGps, 5e-8);
  q.bsend_priced = true;
  q.bsend_s_per_call = 2e-7;
  CHECK(q.send_call(448) == us(0.1448 + 0.2));
  // Not measured (an older calibration file): left out, and the text says so.
  p.bsend_priced = false;
  p.unpack_message_priced = false;
  CHECK(p.send_call(448) == us(0.3));
  CHECK(p.unpack(448) == us(0.4));
  CHECK_THAT(p.describe(448), Catch::Contains("MPI_Bsend's extra is not priced") &&
                                  Catch::Contains("(a message's fixed part not measured)"));
}

TEST_CASE("T_msg refuses a bad T_unpack a message or MPI_Bsend extra", "[tycho][model]") {
  PathMessagePrice p = price_from(std::string(kLogGps) + kLogGp, 5e-8);
  p.unpack_s_per_message = -1e-9;
  CHECK_THROWS_WITH(tycho::model::path_message_cost(p), Catch::Contains("MPI_Bsend's extra"));
  p.unpack_s_per_message = 0;
  p.bsend_s_per_call = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(tycho::model::path_message_cost(p), Catch::Contains("MPI_Bsend's extra"));
  p.bsend_s_per_call = 0;
  p.bsend_s_per_byte = -1;
  CHECK_THROWS_WITH(tycho::model::path_message_cost(p), Catch::Contains("MPI_Bsend's extra"));
}
