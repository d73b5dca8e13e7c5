// LogGP message costs of Sundaram-Stukel & Vernon (PPoPP'99, eq. 1-4) against values worked
// out by hand from their Table 1 (IBM SP/2, C micro-benchmarks):
//   L = 23 us; k <= 1024: o = 16 us, G = 0.07 us/B; k > 1024: o = 36 us, G = 0.03 us/B;
//   handshake for k >= 4 KB (4096 B). Expected values in us, by hand.
#include <catch2/catch.hpp>

#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "instrument/machine_file.hpp"

using namespace instrument;
using namespace instrument::loggp;

namespace {

LogGpParams sp2() {
  LogGpParams p;
  p.L = 23e-6;
  p.rendezvous_bytes = 4096;
  p.bands = {{1024, 16e-6, 0.07e-6}, {1 << 30, 36e-6, 0.03e-6}};
  return p;
}

Approx us(double v) { return Approx(v * 1e-6).epsilon(1e-9); }

}  // namespace

TEST_CASE("Total_Comm eq. (1) and (2), SP/2", "[loggp]") {
  const auto p = sp2();
  // k = 0: 16 + 0 + 23 + 16 = 55.
  CHECK(total_comm(p, 0) == us(55));
  // k = 100: 16 + 7 + 23 + 16 = 62.
  CHECK(total_comm(p, 100) == us(62));
  // k = 1024, last size of the small band: 16 + 71.68 + 23 + 16 = 126.68.
  CHECK(total_comm(p, 1024) == us(126.68));
  // k = 1025, large band: 36 + 30.75 + 23 + 36 = 125.75.
  CHECK(total_comm(p, 1025) == us(125.75));
  // k = 4095, no handshake yet: 36 + 122.85 + 23 + 36 = 217.85.
  CHECK(total_comm(p, 4095) == us(217.85));
  // k = 4096 (eq. 2): 16 + 23 + 16 + 16 + 23 + 36 + 122.88 + 23 + 36 = 311.88.
  CHECK(total_comm(p, 4096) == us(311.88));
  // k = 8192: ... + 245.76 ... = 434.76.
  CHECK(total_comm(p, 8192) == us(434.76));
  CHECK(round_trip_time(p, 8192) == us(869.52));
}

TEST_CASE("Send and Receive eq. (3) and (4), SP/2", "[loggp]") {
  const auto p = sp2();
  CHECK(send_cost(p, 100) == us(16));     // (3a)
  CHECK(receive_cost(p, 100) == us(16));  // (3b)
  CHECK(send_cost(p, 2048) == us(36));
  // (4a) 16 + 23 + 16 + 16 + 23 + 36 = 130.
  CHECK(send_cost(p, 8192) == us(130));
  // (4b) 16 + 23 + 36 + 245.76 + 23 + 36 = 379.76.
  CHECK(receive_cost(p, 8192) == us(379.76));
  CHECK_FALSE(has_handshake(p, 4095));
  CHECK(has_handshake(p, 4096));
}

TEST_CASE("sizes above the last band use the last band", "[loggp]") {
  auto p = sp2();
  p.bands.back().upper_bytes = 8192;
  CHECK(&band_for(p, 1 << 20) == &p.bands.back());
  CHECK(&band_for(p, 1024) == &p.bands.front());
  LogGpParams empty;
  CHECK_THROWS(band_for(empty, 1));
}

TEST_CASE("LogGP parameters round-trip through the machine file", "[loggp]") {
  const auto p = sp2();
  MachineFile f;
  write_params(p, f);
  const auto q = read_params(MachineFile::parse(f.text(), "mem"));
  CHECK(q.L == p.L);
  CHECK(q.rendezvous_bytes == 4096);
  REQUIRE(q.bands.size() == 2);
  CHECK(q.bands[0].upper_bytes == 1024);
  CHECK(q.bands[1].o == 36e-6);
  CHECK(q.bands[1].G == 0.03e-6);
  CHECK(total_comm(q, 8192) == us(434.76));
}

TEST_CASE("LogGP bad files", "[loggp]") {
  CHECK_THROWS_AS(read_params(MachineFile::parse("format = suite-machine-1\nloggp.L = 1e-6\n"
                                                 "loggp.rendezvous_bytes = 10\nloggp.bands = 0\n",
                                                 "z.machine")),
                  InputError);
  CHECK_THROWS_AS(
      read_params(MachineFile::parse("format = suite-machine-1\nloggp.L = 1e-6\nloggp.rendezvous_bytes = 10\n"
                                     "loggp.bands = 2\nloggp.band.1.upper_bytes = 100\nloggp.band.1.o = 1\n"
                                     "loggp.band.1.G = 0\nloggp.band.2.upper_bytes = 50\n"
                                     "loggp.band.2.o = 1\nloggp.band.2.G = 0\n",
                                     "order.machine")),
      InputError);
}
