// LogGP message costs of Sundaram-Stukel & Vernon (PPoPP'99, eq. 1-4) against values worked
// out by hand from their Table 1 (IBM SP/2, C micro-benchmarks):
//   L = 23 us; k <= 1024: o = 16 us, G = 0.07 us/B; k > 1024: o = 36 us, G = 0.03 us/B;
//   handshake for k >= 4 KB (4096 B). Expected values in us, by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

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

// The message of the InputError that reading `text` as a machine file named `name` throws.
std::string refusal(const std::string& text, const std::string& name = "hand.machine") {
  try {
    read_params(MachineFile::parse(text, name));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A hand-written file with three bands: L = 1 us, handshake from 1024 B.
std::string three_bands(const std::string& o2, const std::string& G2) {
  return "format = suite-machine-1\nloggp.L = 1e-6\nloggp.rendezvous_bytes = 1024\nloggp.bands = 3\n"
         "loggp.band.1.upper_bytes = 512\nloggp.band.1.o = 1e-6\nloggp.band.1.G = 1e-9\n"
         "loggp.band.2.upper_bytes = 1023\nloggp.band.2.o = " + o2 + "\nloggp.band.2.G = " + G2 + "\n"
         "loggp.band.3.upper_bytes = 1073741824\nloggp.band.3.o = 1e-6\nloggp.band.3.G = 1e-10\n";
}

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

TEST_CASE("cumulative per-byte cost: each band's G for the bytes in its range", "[loggp]") {
  auto p = sp2();
  p.per_byte = PerByteCost::cumulative;
  // X(1000) = 1000 x 0.07 = 70 (first band: as the paper).
  CHECK(transfer_time(p, 1000) == us(70));
  CHECK(total_comm(p, 1000) == us(16 + 70 + 23 + 16));
  // X(4096) = 1024 x 0.07 + 3072 x 0.03 = 71.68 + 92.16 = 163.84 (band rate: 4096 x 0.03 = 122.88).
  CHECK(transfer_time(p, 4096) == us(163.84));
  CHECK(transfer_time(sp2(), 4096) == us(122.88));
  // eq. (2): 3(16) + 3(23) + 2(36) + 163.84 = 352.84; eq. (4b): 16 + 46 + 72 + 163.84 = 297.84.
  CHECK(total_comm(p, 4096) == us(352.84));
  CHECK(receive_cost(p, 4096) == us(297.84));
  CHECK(send_cost(p, 4096) == us(130));  // no bytes in (4a)
  // X is continuous at the band edge: X(1025) - X(1024) = 0.03. Total_Comm is not, o jumps by
  // 20 us: 16 + 71.68 + 23 + 16 = 126.68 -> 36 + 71.71 + 23 + 36 = 166.71 (+31.6%), which
  // validate refuses; with one o (16 us) for every band it is continuous.
  CHECK(transfer_time(p, 1025) - transfer_time(p, 1024) == Approx(0.03e-6));
  CHECK(total_comm(p, 1025) == us(166.71));
  CHECK_THROWS_WITH(validate(p, "m"), Catch::Contains("m:loggp.band.2: Total_Comm jumps from 1024 B to 1025 B"));
  p.bands[1].o = 16e-6;
  CHECK(total_comm(p, 1025) == us(126.71));
  MachineFile f;
  write_params(p, f);
  CHECK(f.get_string("loggp.per_byte_cost") == std::string("cumulative"));
  const auto q = read_params(MachineFile::parse(f.text(), "mem"));
  CHECK(q.per_byte == PerByteCost::cumulative);
  // eq. (2) with o_l = 16: 3(16) + 3(23) + 2(16) + 163.84 = 312.84.
  CHECK(total_comm(q, 4096) == us(312.84));
}

TEST_CASE("a steep band is not a jump: only what the slope does not explain counts", "[loggp]") {
  // A protocol switch between 64 and 128 B, measured at those two sizes only: the fit spreads
  // it over the band, 170 ns/B. Total_Comm(64) = 2(0.25) + 0.1 = 0.6 us, Total_Comm(65) = 0.77
  // us (+28% in one byte, all of it the band's slope), Total_Comm(128) = 0.6 + 64 x 0.17 = 11.48.
  LogGpParams p;
  p.L = 0.1e-6;
  p.rendezvous_bytes = 8192;
  p.per_byte = PerByteCost::cumulative;
  p.bands = {{64, 0.25e-6, 0.0}, {128, 0.25e-6, 170e-9}, {8191, 0.25e-6, 0.05e-9}, {1 << 30, 0.25e-6, 0.05e-9}};
  CHECK(total_comm(p, 65) == us(0.77));
  CHECK(total_comm(p, 128) == us(11.48));
  CHECK_NOTHROW(validate(p, "steep"));
  // With band rates the same G makes a real jump at 64 -> 65 B: 0.6 -> 0.6 + 65 x 0.17 = 11.65 us.
  p.per_byte = PerByteCost::band_rate;
  CHECK_THROWS_WITH(validate(p, "m"), Catch::Contains("m:loggp.band.2: Total_Comm jumps from 64 B to 65 B"));
}

TEST_CASE("the paper's Table 1 meets every constraint (0.7% step down at 1 KB, within 4%)", "[loggp]") {
  // Total_Comm: 126.68 us at 1024 B, 125.75 us at 1025 B: -0.73%.
  CHECK_NOTHROW(validate(sp2(), "sp2"));
  CHECK_NOTHROW(read_params(MachineFile::parse(three_bands("1e-6", "1e-9"), "ok.machine")));
}

TEST_CASE("hand-edited LogGP files that break a constraint are refused, the key named", "[loggp]") {
  // A negative o (today's probe wrote this band above 512 KiB; Total_Comm then fell from
  // 34.3 us at 524288 B to 25.4 us at 524289 B).
  const std::string neg =
      refusal("format = suite-machine-1\nloggp.L = 0\nloggp.rendezvous_bytes = 8256\nloggp.bands = 2\n"
              "loggp.band.1.upper_bytes = 524288\nloggp.band.1.o = 1.7190169302425246e-06\n"
              "loggp.band.1.G = 2.7255310777944834e-11\nloggp.band.2.upper_bytes = 4194304\n"
              "loggp.band.2.o = -4.431530419224037e-06\nloggp.band.2.G = 4.868962849331214e-11\n");
  CHECK(neg == "hand.machine:loggp.band.2.o: expected an overhead in [0, 1] s, got -4.43153e-06");

  // Total_Comm falling across a band edge: band 1 ends at 512 B with 2(1) + 1 + 0.512 =
  // 3.512 us, band 2 starts at 513 B with 2(1) + 1 + 513 x 0.0002 = 3.1026 us: -11.66%.
  const std::string falls = refusal(three_bands("1e-6", "2e-10"));
  CHECK(falls.find("hand.machine:loggp.band.2: Total_Comm falls from 512 B to 513 B") == 0);
  CHECK(falls.find("(3.512 us -> 3.1026 us, -11.6572%)") != std::string::npos);

  // ... or jumping up there: band 2 with o = 2 us: 2(2) + 1 + 0.1026 = 5.1026 us, +45.29%.
  const std::string jumps = refusal(three_bands("2e-6", "2e-10"));
  CHECK(jumps.find("hand.machine:loggp.band.2: Total_Comm jumps from 512 B to 513 B") == 0);
  CHECK(jumps.find("only the handshake may jump") != std::string::npos);

  // NaN and infinity: the parser refuses NaN with the key, the range check anything not finite.
  const std::string nan = refusal(three_bands("nan", "2e-10"));
  CHECK(nan.find("hand.machine:line 9") == 0);
  CHECK(nan.find("'loggp.band.2.o'") != std::string::npos);
  CHECK(refusal(three_bands("1e-6", "inf")) == "hand.machine:loggp.band.2.G: expected a gap per byte in [0, 1e-06] s/B, got inf");
  CHECK(refusal(three_bands("1e-6", "-1e-10")) ==
        "hand.machine:loggp.band.2.G: expected a gap per byte in [0, 1e-06] s/B, got -1e-10");

  // A negative latency, and a per-byte mode that does not exist.
  std::string negL = three_bands("1e-6", "1e-9");
  negL.replace(negL.find("loggp.L = 1e-6"), 14, "loggp.L = -1e-7");
  CHECK(refusal(negL) == "hand.machine:loggp.L: expected a latency in [0, 1] s, got -1e-07");
  CHECK(refusal(three_bands("1e-6", "1e-9") + "loggp.per_byte_cost = linear\n") ==
        "hand.machine:loggp.per_byte_cost: expected band-rate or cumulative, got \"linear\"");

  // Parameters built in code are checked the same way (the probe calls validate).
  auto p = sp2();
  p.bands[1].o = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(validate(p, "code"), "code:loggp.band.2.o: expected an overhead in [0, 1] s, got nan");
}

TEST_CASE("every LogGP number is checked against its physical range, the range named", "[loggp]") {
  // Each value just inside its range is accepted, just outside refused (hand-made files:
  // three_bands has L = 1e-6, band 2's o and G as given).
  CHECK(refusal(three_bands("1.5", "1e-9")) == "hand.machine:loggp.band.2.o: expected an overhead in [0, 1] s, got 1.5");
  CHECK(refusal(three_bands("1e-6", "2e-6")) ==
        "hand.machine:loggp.band.2.G: expected a gap per byte in [0, 1e-06] s/B, got 2e-06");
  std::string slow = three_bands("1e-6", "1e-9");
  slow.replace(slow.find("loggp.L = 1e-6"), 14, "loggp.L = 2");
  CHECK(refusal(slow) == "hand.machine:loggp.L: expected a latency in [0, 1] s, got 2");
  std::string infL = three_bands("1e-6", "1e-9");
  infL.replace(infL.find("loggp.L = 1e-6"), 14, "loggp.L = inf");  // printed -nan as a time once
  CHECK(refusal(infL) == "hand.machine:loggp.L: expected a latency in [0, 1] s, got inf");
  std::string junk = three_bands("1e-6", "1e-9");
  junk.replace(junk.find("loggp.L = 1e-6"), 14, "loggp.L = 2000abc");
  CHECK(refusal(junk) == "hand.machine:line 2: expected a number for 'loggp.L', got \"2000abc\"");
  // A count is checked before the loop that reads its keys: 10^18 bands are not looked for.
  std::string many = three_bands("1e-6", "1e-9");
  many.replace(many.find("loggp.bands = 3"), 15, "loggp.bands = 1000000000000000000");
  CHECK(refusal(many) == "hand.machine:loggp.bands: expected a number of size bands in [1, 64], got 1000000000000000000");
  std::string huge = three_bands("1e-6", "1e-9");
  huge.replace(huge.find("loggp.rendezvous_bytes = 1024"), 29, "loggp.rendezvous_bytes = 2199023255552");
  CHECK(refusal(huge) ==
        "hand.machine:loggp.rendezvous_bytes: expected a message size in [1, 1099511627776] B, got 2199023255552");
}
