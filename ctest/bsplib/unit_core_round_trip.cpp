// The cache-line round trip between the processes' CPUs (core_round_trip.hpp): the probe's
// machine-file key bsp.core_round_trip_seconds (machine_params.hpp: the summary of the
// samples, the parse, the range check, the write and read back, files without the key), the
// profile's `# core_round_trip_seconds` line (profile_table.hpp) and how far a run's
// placement is from the probe's. No MPI, no timing.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "bsplib/model/core_round_trip.hpp"
#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"

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

namespace {
const std::string kProfileRows =
    "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
    "msgs_out,msgs_in,gets_out\n"
    "0,0,x,0,0.000001,0.000003,0.000001,0.000002,0,0,0,0,0\n"
    "0,1,x,0,0.000001,0.000003,0.000001,0.000002,0,0,0,0,0\n";
const std::string kProfileFormat = "# format = bsplib-profile-2, nprocs = 2\n";

std::string profile_error(const std::string& text) {
  try {
    parse_profile(text, "p.csv");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a profile's round trips at bsp_begin and bsp_end are read; other comments skipped") {
  const Profile with = parse_profile(
      kProfileFormat + "# core_round_trip_seconds = 1.367e-07 5.4e-07\n# a note\n" + kProfileRows,
      "p.csv");
  REQUIRE(with.core_round_trip_seconds.size() == 2);
  CHECK(with.core_round_trip_seconds[0] == Approx(136.7e-9));
  CHECK(with.core_round_trip_seconds[1] == Approx(540e-9));
  CHECK(with.steps.size() == 1);
  CHECK(parse_profile(kProfileFormat + kProfileRows, "p.csv").core_round_trip_seconds.empty());
}

TEST_CASE("a profile's round-trip line: 1 to 8 numbers in [0, 1] s, else refused on its line") {
  CHECK_THAT(profile_error(kProfileFormat + "# core_round_trip_seconds =\n" + kProfileRows),
             Catch::Contains("p.csv") && Catch::Contains("line 2") &&
                 Catch::Contains("1 to 8 numbers"));
  CHECK_THAT(profile_error(kProfileFormat + "# core_round_trip_seconds = 1e-7 -1e-7\n" + kProfileRows),
             Catch::Contains("line 2") && Catch::Contains("core_round_trip_seconds"));
  CHECK_THAT(profile_error(kProfileFormat + "# core_round_trip_seconds = 1e-7x\n" + kProfileRows),
             Catch::Contains("line 2") && Catch::Contains("core_round_trip_seconds"));
  CHECK_THAT(profile_error(kProfileFormat + "# core_round_trip_seconds = 1e-7 1e-7 1e-7 1e-7 1e-7 1e-7 1e-7 1e-7 1e-7\n" +
                           kProfileRows),
             Catch::Contains("1 to 8 numbers"));
}

TEST_CASE("a run's placement against the probe's: the largest ratio either way") {
  CHECK(placement_ratio(0, {140e-9}) == 0.0);         // the probe did not measure it
  CHECK(placement_ratio(140e-9, {}) == 0.0);          // nor did the run
  CHECK(placement_ratio(140e-9, {0.0, 140e-9}) == 0.0);
  CHECK(placement_ratio(140e-9, {137e-9, 140e-9}) == Approx(140.0 / 137));
  CHECK(placement_ratio(135e-9, {540e-9, 550e-9}) == Approx(550.0 / 135));
  CHECK(placement_ratio(540e-9, {135e-9, 540e-9}) == Approx(4.0));
  CHECK(placement_ratio(540e-9, {550e-9}) <= kSamePlacementRatio);
  CHECK(placement_ratio(135e-9, {540e-9}) > kSamePlacementRatio);
}
