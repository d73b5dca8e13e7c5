// The probe's cache-line round trip (core_round_trip.hpp) and its machine-file key
// bsp.core_round_trip_seconds (machine_params.hpp): the summary of the samples, the parse,
// the range check, the write and read back, and files without the key. No MPI, no timing.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "bsplib/model/core_round_trip.hpp"
#include "bsplib/model/machine_params.hpp"

using namespace bspmodel;

namespace {

const std::string kMachine =
    "format = suite-machine-1\nbsp.p = 2\nbsp.l_seconds = 1.7e-7\nbsp.g_seconds_per_byte = 5e-11\n";

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = "unit_core_round_trip_" + name + ".machine";
  std::ofstream(path) << text;
  return path;
}

BspMachine read_text(const std::string& name, const std::string& text) {
  const std::string path = write_temp(name, text);
  try {
    BspMachine m = read_machine_file(path);
    std::remove(path.c_str());
    return m;
  } catch (...) {
    std::remove(path.c_str());
    throw;
  }
}

}  // namespace

TEST_CASE("the round trip of a probe: the median of its samples, 0 without any") {
  CHECK(core_round_trip({}) == 0.0);
  CHECK(core_round_trip({150e-9}) == Approx(150e-9));
  // six samples as bspprobe takes them: the mean of the middle two
  CHECK(core_round_trip({129e-9, 134e-9, 138e-9, 136e-9, 138e-9, 128e-9}) == Approx(135e-9));
}

TEST_CASE("a placement that moved while probing: samples more than 1.5x apart") {
  CHECK_FALSE(placement_moved({}));
  CHECK_FALSE(placement_moved({540e-9}));
  CHECK_FALSE(placement_moved({129e-9, 138e-9, 146e-9}));
  CHECK(placement_moved({150e-9, 150e-9, 531e-9}));  // 150 ns, then 531 ns (seen in one run)
  CHECK(placement_moved({100e-9, 160e-9}, 1.5));
  CHECK_FALSE(placement_moved({100e-9, 150e-9}, 1.5));
}

TEST_CASE("bsp.core_round_trip_seconds is read, written back and checked against [0, 1] s") {
  SECTION("read") {
    const BspMachine m = read_text("read", kMachine + "bsp.core_round_trip_seconds = 1.35e-07\n");
    CHECK(m.core_round_trip_seconds == Approx(135e-9));
    CHECK(m.l_seconds == Approx(170e-9));
    CHECK(m.extra.count("bsp.core_round_trip_seconds") == 0);  // a known key, not an extra
  }
  SECTION("a file without it (older probes, the paper's) reads as not measured") {
    CHECK(read_text("absent", kMachine).core_round_trip_seconds == 0.0);
  }
  SECTION("out of range: refused, naming the key") {
    for (const char* bad : {"-1e-7", "2", "nan"}) {
      INFO(bad);
      try {
        read_text("bad", kMachine + "bsp.core_round_trip_seconds = " + bad + "\n");
        FAIL("accepted " << bad);
      } catch (const std::exception& e) {
        CHECK_THAT(e.what(), Catch::Contains("bsp.core_round_trip_seconds"));
      }
    }
  }
  SECTION("written by write_machine_file and read back; 0 is not written") {
    BspMachine m = read_text("base", kMachine);
    m.core_round_trip_seconds = 5.4e-7;
    const std::string path = "unit_core_round_trip_written.machine";
    std::remove(path.c_str());
    write_machine_file(path, m, "test");
    CHECK(read_machine_file(path).core_round_trip_seconds == Approx(5.4e-7));
    m.core_round_trip_seconds = 0;
    std::remove(path.c_str());
    write_machine_file(path, m, "test");
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("bsp.core_round_trip_seconds") == std::string::npos);
    CHECK(read_machine_file(path).core_round_trip_seconds == 0.0);
    std::remove(path.c_str());
  }
}
