// /tycho/calibration written by add_calibration and read back by read_tycho_calibration;
// every missing or out-of-range attribute refused with the file and the attribute named.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "../scratch_dir.hpp"
#include "instrument/error.hpp"
#include "instrument/recorder.hpp"
#include "instrument/results_file.hpp"
#include "instrument/run_results.hpp"
#include "tycho/results_calibration.hpp"
#include "tycho/bsend_probe.hpp"
#include "tycho/ld_tet.hpp"
#include "tycho/unpack_probe.hpp"

using tycho::TychoCalibration;

namespace {

TychoCalibration sample() {
  TychoCalibration c;
  c.e_p = 687;
  c.t_elem_s = 4.5e-7;
  c.groups = 2;
  c.directions = 80;
  c.scheme = "ld";
  c.threads = 1;
  c.mcps = 512;
  c.priority = "octant";
  c.mesh = "cube-1374.smesh";
  c.unpack_s_per_record = 4.25e-8;
  c.unpack_s_per_message = 2.5e-7;
  c.bsend_extra_s_per_call = 1.5e-7;
  c.bsend_extra_s_per_byte = 4e-10;
  c.step_s = 1.1e-6;
  return c;
}

// A results file of app `app` whose /tycho/calibration is `c`'s, then `edit` applied to it.
std::string write_file(const ScratchDir& dir, const std::string& name, const std::string& app,
                       const TychoCalibration& c,
                       const std::function<void(instrument::Attributes&)>& edit = {}) {
  instrument::Recorder rec(0);
  instrument::ResultsDocument doc;
  doc.run = instrument::gather_results(rec, instrument::make_run_info(app, MPI_COMM_SELF), MPI_COMM_SELF);
  tycho::add_calibration(c, doc.extras);
  if (edit) edit(doc.extras.group_attributes["/tycho/calibration"]);
  const std::string path = (dir.path / name).string();
  instrument::write_results(path, doc);
  return path;
}

std::string refusal(const std::string& path) {
  try {
    tycho::read_tycho_calibration(path);
  } catch (const instrument::InputError& e) {
    return e.what();
  }
  FAIL("read_tycho_calibration should have refused " + path);
  return "";
}

}  // namespace

TEST_CASE("a calibration written is read back whole", "[tycho][results]") {
  ScratchDir dir("tycho_calibration");
  const std::string path = write_file(dir, "good.h5", "tycho", sample());
  const TychoCalibration c = tycho::read_tycho_calibration(path);
  CHECK(c.e_p == 687);
  CHECK(c.t_elem_s == 4.5e-7);
  CHECK(c.groups == 2);
  CHECK(c.directions == 80);
  CHECK(c.scheme == "ld");
  CHECK(c.threads == 1);
  CHECK(c.mcps == 512);
  CHECK(c.priority == "octant");
  CHECK(c.mesh == "cube-1374.smesh");
  CHECK(c.unpack_s_per_record == 4.25e-8);
  CHECK(c.unpack_s_per_message == 2.5e-7);
  CHECK(c.bsend_extra_s_per_call == 1.5e-7);
  CHECK(c.bsend_extra_s_per_byte == 4e-10);
  CHECK(c.step_s == 1.1e-6);
  CHECK(c.t_elem_scored);
  CHECK(c.path == path);
  // The fixed parts may be measured as 0 (within noise): written and read as 0, not "absent".
  TychoCalibration zero = sample();
  zero.unpack_s_per_message = 0;
  zero.bsend_extra_s_per_call = 0;
  zero.bsend_extra_s_per_byte = 0;
  const TychoCalibration z = tycho::read_tycho_calibration(write_file(dir, "zero.h5", "tycho", zero));
  CHECK(z.unpack_s_per_message == 0);
  CHECK(z.bsend_extra_s_per_call == 0);
  CHECK(z.bsend_extra_s_per_byte == 0);
  // A file from before the fixed unpack part and the buffered send's extra were kept: read,
  // each -1 (not measured), the rest intact.
  const TychoCalibration older = tycho::read_tycho_calibration(write_file(dir, "older.h5", "tycho", sample(), [](auto& a) {
    a.erase("unpack_s_per_message");
    a.erase("bsend_extra_s_per_call");
    a.erase("bsend_extra_s_per_byte");
    a.erase("step_s_per_step");
    a.erase("t_elem_iterations");
    a.erase("priority");
  }));
  CHECK(older.priority.empty());  // not recorded: blevel, the default then, assumed
  CHECK(tycho::calibration_priority(older) == "blevel");
  CHECK(tycho::calibration_priority_found(older) ==
        "none recorded (a file from before 2026-12-04: blevel, the default then, assumed)");
  CHECK(tycho::calibration_priority(c) == "octant");  // a recorded one as it is
  CHECK(tycho::calibration_priority_found(c) == "octant");
  CHECK(older.step_s == -1);
  CHECK_FALSE(older.t_elem_scored);  // its T_elem counted the first iteration too
  CHECK(older.unpack_s_per_message == -1);
  CHECK(older.bsend_extra_s_per_call == -1);
  CHECK(older.bsend_extra_s_per_byte == -1);
  CHECK(older.unpack_s_per_record == 4.25e-8);
  CHECK(older.t_elem_s == 4.5e-7);
  // A file written before MCPS was kept: read, MCPS 0 (not known).
  TychoCalibration old = sample();
  old.mcps = 0;
  CHECK(tycho::read_tycho_calibration(write_file(dir, "old.h5", "tycho", old)).mcps == 0);
  // A file written before T_unpack was kept: read as before, T_unpack 0 (not priced).
  TychoCalibration no_unpack = sample();
  no_unpack.unpack_s_per_record = 0;
  const TychoCalibration read = tycho::read_tycho_calibration(write_file(dir, "no_unpack.h5", "tycho", no_unpack));
  CHECK(read.unpack_s_per_record == 0);
  CHECK(read.t_elem_s == 4.5e-7);
}

TEST_CASE("T_unpack is timed on tycho's own unpack: a record's part and a message's", "[tycho][results]") {
  const tycho::UnpackCost t = tycho::measure_unpack_cost(4128, 80, 2, 512);
  CHECK(t.s_per_record > 0);
  CHECK(t.s_per_record < 1e-5);  // a memcpy of 48 B and a queue update; even a sanitizer build stays far below
  CHECK(t.s_per_message >= 0);
  CHECK(t.s_per_message < 1e-4);
  // A rank smaller than a pass's records (its slots visited again) and one of one slot.
  CHECK(tycho::measure_unpack_cost(10, 8, 1, 4).s_per_record > 0);
  CHECK(tycho::measure_unpack_cost(1, 1, 1, 1).s_per_record > 0);
  CHECK_THROWS_AS(tycho::measure_unpack_cost(0, 80, 2, 512), std::invalid_argument);
  CHECK_THROWS_AS(tycho::measure_unpack_cost(10, 0, 2, 512), std::invalid_argument);
  CHECK_THROWS_AS(tycho::measure_unpack_cost(10, 80, 0, 512), std::invalid_argument);
  CHECK_THROWS_AS(tycho::measure_unpack_cost(10, 80, 2, 0), std::invalid_argument);
}

TEST_CASE("a step's working set: its tasks' psi, source, geometry and 3 inflow faces", "[tycho][results]") {
  // 2 groups: 17 x 2 doubles = 272 B a task beside its geometry.
  CHECK(tycho::step_working_set_bytes(512, 2) == 512 * (sizeof(tycho::LdTet) + 272));
  CHECK(tycho::step_working_set_bytes(0, 2) == 0);
  CHECK_THROWS_AS(tycho::step_working_set_bytes(512, 0), std::invalid_argument);
}

TEST_CASE("MPI_Bsend's extra over MPI_Isend is measured at one rank, and leaves no buffer attached",
          "[tycho][results]") {
  const tycho::BsendExtra e = tycho::measure_bsend_extra(tycho::step_working_set_bytes(64, 2));
  CHECK(e.s_per_call >= 0);
  CHECK(e.s_per_call < 1e-3);
  CHECK(e.s_per_byte >= 0);
  CHECK(e.s_per_byte < 1e-6);
  CHECK(e.at(448) == Approx(e.s_per_call + 448 * e.s_per_byte));
  // Its buffer is detached: a second run attaches its own again.
  CHECK_NOTHROW(tycho::measure_bsend_extra(0));
  void* buffer = nullptr;
  int size = -1;
  MPI_Buffer_detach(&buffer, &size);
  CHECK(size == 0);
}

TEST_CASE("a bad calibration names the file and the attribute", "[tycho][results]") {
  ScratchDir dir("tycho_calibration_bad");
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    const char* name;
    std::function<void(instrument::Attributes&)> edit;
    const char* expected;
  };
  const Case cases[] = {
      {"no_t_elem", [](auto& a) { a.erase("t_elem_s"); },
       ":/tycho/calibration/t_elem_s: this attribute (a tycho results file of this version; re-run it)"},
      {"t_elem_zero", [](auto& a) { a["t_elem_s"] = 0.0; },
       ":/tycho/calibration/t_elem_s: seconds per cell-angle task in [1e-10, 1]; got 0"},
      {"t_elem_negative", [](auto& a) { a["t_elem_s"] = -1e-7; },
       ":/tycho/calibration/t_elem_s: seconds per cell-angle task in [1e-10, 1]; got -1e-07"},
      {"t_elem_nan", [nan](auto& a) { a["t_elem_s"] = nan; },
       ":/tycho/calibration/t_elem_s: seconds per cell-angle task in [1e-10, 1]; got nan"},
      {"t_elem_huge", [](auto& a) { a["t_elem_s"] = 1e300; },
       ":/tycho/calibration/t_elem_s: seconds per cell-angle task in [1e-10, 1]; got 1e+300"},
      {"t_elem_tiny", [](auto& a) { a["t_elem_s"] = 1e-300; },
       ":/tycho/calibration/t_elem_s: seconds per cell-angle task in [1e-10, 1]; got 1e-300"},
      {"t_elem_text", [](auto& a) { a["t_elem_s"] = std::string("fast"); },
       ":/tycho/calibration/t_elem_s: a number, seconds per cell-angle task, in [1e-10, 1]"},
      {"e_p_inf", [inf](auto& a) { a["e_p"] = inf; },
       ":/tycho/calibration/e_p: cells per rank in [1, 1.09951e+12]; got inf"},
      {"no_e_p", [](auto& a) { a.erase("e_p"); }, ":/tycho/calibration/e_p: this attribute (a tycho results file of this version; re-run it)"},
      {"groups_zero", [](auto& a) { a["groups"] = std::int64_t{0}; },
       ":/tycho/calibration/groups: an integer in [1, 64] (energy groups); got 0"},
      {"groups_real", [](auto& a) { a["groups"] = 2.0; },
       ":/tycho/calibration/groups: an integer in [1, 64] (energy groups)"},
      {"threads_zero", [](auto& a) { a["threads"] = std::int64_t{0}; },
       ":/tycho/calibration/threads: an integer in [1, 256] (OpenMP threads per rank); got 0"},
      {"no_directions", [](auto& a) { a.erase("directions"); }, ":/tycho/calibration/directions: this attribute (a tycho results file of this version; re-run it)"},
      {"scheme_foo", [](auto& a) { a["scheme"] = std::string("foo"); },
       ":/tycho/calibration/scheme: ld or step; got \"foo\""},
      {"priority_foo", [](auto& a) { a["priority"] = std::string("foo"); },
       ":/tycho/calibration/priority: band-octant, blevel, boundary, direction, octant or fifo; got \"foo\""},
      {"mcps_zero", [](auto& a) { a["mcps"] = std::int64_t{0}; },
       ":/tycho/calibration/mcps: an integer in [1, 2^40] (the run's MCPS); got 0"},
      {"mcps_real", [](auto& a) { a["mcps"] = 512.0; },
       ":/tycho/calibration/mcps: an integer in [1, 2^40] (the run's MCPS)"},
      {"no_mesh", [](auto& a) { a.erase("mesh"); }, ":/tycho/calibration/mesh: this attribute (a tycho results file of this version; re-run it)"},
      {"unpack_zero", [](auto& a) { a["unpack_s_per_record"] = 0.0; },
       ":/tycho/calibration/unpack_s_per_record: seconds per face record unpacked in [1e-10, 0.001]; got 0"},
      {"unpack_negative", [](auto& a) { a["unpack_s_per_record"] = -5e-8; },
       ":/tycho/calibration/unpack_s_per_record: seconds per face record unpacked in [1e-10, 0.001]; got -5e-08"},
      {"unpack_nan", [nan](auto& a) { a["unpack_s_per_record"] = nan; },
       ":/tycho/calibration/unpack_s_per_record: seconds per face record unpacked in [1e-10, 0.001]; got nan"},
      {"unpack_huge", [](auto& a) { a["unpack_s_per_record"] = 2.0; },
       ":/tycho/calibration/unpack_s_per_record: seconds per face record unpacked in [1e-10, 0.001]; got 2"},
      {"unpack_text", [](auto& a) { a["unpack_s_per_record"] = std::string("quick"); },
       ":/tycho/calibration/unpack_s_per_record: a number, seconds per face record unpacked, in [1e-10, 0.001]"},
      {"unpack_message_negative", [](auto& a) { a["unpack_s_per_message"] = -1.0; },
       ":/tycho/calibration/unpack_s_per_message: seconds a message's unpack takes besides its records, 0 or in "
       "[1e-10, 0.001]; got -1"},
      {"unpack_message_nan", [nan](auto& a) { a["unpack_s_per_message"] = nan; },
       ":/tycho/calibration/unpack_s_per_message: seconds a message's unpack takes besides its records, 0 or in "
       "[1e-10, 0.001]; got nan"},
      {"bsend_call_huge", [](auto& a) { a["bsend_extra_s_per_call"] = 2.0; },
       ":/tycho/calibration/bsend_extra_s_per_call: seconds an MPI_Bsend call takes beyond an MPI_Isend, 0 or in "
       "[1e-10, 0.001]; got 2"},
      {"bsend_call_text", [](auto& a) { a["bsend_extra_s_per_call"] = std::string("slow"); },
       ":/tycho/calibration/bsend_extra_s_per_call: a number, seconds an MPI_Bsend call takes beyond an MPI_Isend, "
       "0 or in [1e-10, 0.001]"},
      {"bsend_byte_huge", [](auto& a) { a["bsend_extra_s_per_byte"] = 1e-3; },
       ":/tycho/calibration/bsend_extra_s_per_byte: seconds per byte an MPI_Bsend takes beyond an MPI_Isend, 0 or "
       "in [1e-15, 1e-06]; got 0.001"},
      {"step_huge", [](auto& a) { a["step_s_per_step"] = 0.5; },
       ":/tycho/calibration/step_s_per_step: seconds of a one-rank sweep's step bookkeeping per step, 0 or in "
       "[1e-10, 0.01]; got 0.5"},
      {"step_negative", [](auto& a) { a["step_s_per_step"] = -1.0; },
       ":/tycho/calibration/step_s_per_step: seconds of a one-rank sweep's step bookkeeping per step, 0 or in "
       "[1e-10, 0.01]; got -1"},
      {"t_elem_iterations_other", [](auto& a) { a["t_elem_iterations"] = std::string("first"); },
       ":/tycho/calibration/t_elem_iterations: scored or every; got \"first\""},
      {"step_text", [](auto& a) { a["step_s_per_step"] = std::string("fast"); },
       ":/tycho/calibration/step_s_per_step: a number, seconds of a one-rank sweep's step bookkeeping per step, "
       "0 or in [1e-10, 0.01]"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const std::string path = write_file(dir, std::string(c.name) + ".h5", "tycho", sample(), c.edit);
      CHECK(refusal(path) == path + c.expected);
    }
  }
  SECTION("another app's results file") {
    const std::string path = write_file(dir, "sweep3d.h5", "sweep3d", sample());
    CHECK(refusal(path) == path + ":/tycho/calibration: a tycho results file with a calibration (this one is from \"sweep3d\")");
  }
  SECTION("no calibration group") {
    const std::string path = write_file(dir, "none.h5", "tycho", sample(),
                                        [](auto& a) { a.clear(); });
    CHECK_THAT(refusal(path), Catch::StartsWith(path + ":/tycho/calibration"));
  }
  SECTION("a missing file") {
    const std::string path = (dir.path / "absent.h5").string();
    CHECK_THAT(refusal(path), Catch::StartsWith(path));
  }
}
