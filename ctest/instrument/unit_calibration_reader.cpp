// The one calibration reader: the right app and group, then each attribute by type and
// range; every refusal one line "<file>:<group>/<key>: <what was expected>".
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "../scratch_dir.hpp"
#include "instrument/calibration_reader.hpp"
#include "instrument/error.hpp"
#include "instrument/recorder.hpp"
#include "instrument/results_file.hpp"
#include "instrument/run_results.hpp"

using instrument::CalibrationGroup;
using instrument::CalibrationReader;

namespace {

const CalibrationGroup kDemo{"demo", "/demo/calibration", "the calibration results file"};

// A demo app's results document with a calibration group.
instrument::ResultsDocument document(const std::string& app = "demo") {
  instrument::ResultsDocument doc;
  doc.run.info.app = app;
  doc.run.info.nranks = 1;
  auto& a = doc.extras.group_attributes["/demo/calibration"];
  a["seconds"] = 2.5e-9;
  a["cells"] = std::int64_t{384};  // a whole number where a real is asked: taken as one
  a["threads"] = std::int64_t{4};
  a["kernel"] = std::string("avx2");
  a["loose"] = 0.0;
  return doc;
}

// What reading `doc` with `read` refused, as the one line main prints.
template <class F>
std::string refusal(const instrument::ResultsDocument& doc, F&& read) {
  try {
    const CalibrationReader r(doc, kDemo, "cal.h5");
    read(r);
  } catch (const instrument::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a good group gives typed values, and defaults for what is absent") {
  const instrument::ResultsDocument doc = document();
  const CalibrationReader r(doc, kDemo, "cal.h5");
  CHECK(r.real("seconds", 1e-11, 1e-3, "seconds per cell") == 2.5e-9);
  CHECK(r.real("cells", 1, 0x1p40, "cells per rank") == 384.0);
  CHECK(r.whole("threads", 1, 256, "threads per rank") == 4);
  CHECK(r.text("kernel", "the kernel") == "avx2");
  CHECK(r.choice("kernel", {"reference", "avx2"}) == "avx2");
  CHECK(r.zero_or_real("loose", 1e-11, 1e-3, "seconds per loose cell") == 0.0);
  CHECK(r.real_or("absent", 7.0, 0, 10, "x") == 7.0);
  CHECK(r.zero_or_real_or("absent", 0.0, 1, 10, "x") == 0.0);
  CHECK(r.whole_or("absent", 3, 1, 10, "x") == 3);
  CHECK(r.text_or("absent", "scalar", "x") == "scalar");
  CHECK(r.whole_or("threads", 3, 1, 10, "x") == 4);  // present: its own value, checked
  CHECK_FALSE(r.has("absent"));
  CHECK(r.path() == "cal.h5");
}

TEST_CASE("another app's file, or one without the group, is refused naming the group") {
  CHECK(refusal(document("tycho"), [](const CalibrationReader&) {}) ==
        "cal.h5:/demo/calibration: a demo results file with a calibration (this one is from \"tycho\")");
  instrument::ResultsDocument none = document();
  none.extras.group_attributes.clear();
  CHECK(refusal(none, [](const CalibrationReader&) {}) ==
        "cal.h5:/demo/calibration: a demo results file with a calibration (this one has none; re-run it)");
}

TEST_CASE("a missing attribute is named, optional or not") {
  const auto doc = document();
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.real("wg", 0, 1, "seconds"); }) ==
        "cal.h5:/demo/calibration/wg: this attribute (a demo results file of this version; re-run it)");
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.whole("mk", 1, 8, "planes"); }) ==
        "cal.h5:/demo/calibration/mk: this attribute (a demo results file of this version; re-run it)");
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.text("mesh", "the mesh"); }) ==
        "cal.h5:/demo/calibration/mesh: this attribute (a demo results file of this version; re-run it)");
}

TEST_CASE("a value of the wrong type is refused with the type expected") {
  const auto doc = document();
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.real("kernel", 1e-11, 1e-3, "seconds per cell"); }) ==
        "cal.h5:/demo/calibration/kernel: a number, seconds per cell, in [1e-11, 0.001]");
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.zero_or_real("kernel", 1e-11, 1e-3, "seconds per cell"); }) ==
        "cal.h5:/demo/calibration/kernel: a number, seconds per cell, 0 or in [1e-11, 0.001]");
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.whole("seconds", 1, 64, "energy groups"); }) ==
        "cal.h5:/demo/calibration/seconds: an integer in [1, 64] (energy groups)");
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.text("threads", "the mesh file"); }) ==
        "cal.h5:/demo/calibration/threads: a string (the mesh file)");
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.choice("threads", {"ld", "step"}); }) ==
        "cal.h5:/demo/calibration/threads: a string (ld or step)");
  // An optional attribute present with the wrong type is refused too, not taken as absent.
  CHECK(refusal(doc, [](const CalibrationReader& r) { r.text_or("threads", "", "the kernel"); }) ==
        "cal.h5:/demo/calibration/threads: a string (the kernel)");
}

TEST_CASE("a value out of range is refused with the range and what was found") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto with = [](const char* key, instrument::AttributeValue v) {
    instrument::ResultsDocument doc = document();
    doc.extras.group_attributes["/demo/calibration"][key] = std::move(v);
    return doc;
  };
  const auto seconds = [](const CalibrationReader& r) { r.real("seconds", 1e-11, 1e-3, "seconds per cell"); };
  const std::string s = "cal.h5:/demo/calibration/seconds: seconds per cell in [1e-11, 0.001]; got ";
  CHECK(refusal(with("seconds", 1e300), seconds) == s + "1e+300");
  CHECK(refusal(with("seconds", 1e-300), seconds) == s + "1e-300");
  CHECK(refusal(with("seconds", 0.0), seconds) == s + "0");
  CHECK(refusal(with("seconds", -2e-9), seconds) == s + "-2e-09");
  CHECK(refusal(with("seconds", nan), seconds) == s + "nan");
  CHECK(refusal(with("seconds", inf), seconds) == s + "inf");
  CHECK(refusal(with("cells", inf), [](const CalibrationReader& r) { r.real("cells", 1, 0x1p40, "cells per rank"); }) ==
        "cal.h5:/demo/calibration/cells: cells per rank in [1, 1.09951e+12]; got inf");
  CHECK(refusal(with("loose", 5e-12), [](const CalibrationReader& r) {
          r.zero_or_real_or("loose", 0.0, 1e-11, 1e-3, "seconds per loose cell");
        }) == "cal.h5:/demo/calibration/loose: seconds per loose cell, 0 or in [1e-11, 0.001]; got 5e-12");
  CHECK(refusal(with("threads", std::int64_t{0}), [](const CalibrationReader& r) { r.whole("threads", 1, 256, "threads"); }) ==
        "cal.h5:/demo/calibration/threads: an integer in [1, 256] (threads); got 0");
  CHECK(refusal(with("threads", std::int64_t{1} << 41), [](const CalibrationReader& r) {
          r.whole_or("threads", 1, 1, std::int64_t{1} << 40, "the run's MCPS");
        }) == "cal.h5:/demo/calibration/threads: an integer in [1, 2^40] (the run's MCPS); got 2199023255552");
  CHECK(refusal(with("kernel", std::string("avx2\n")), [](const CalibrationReader& r) {
          r.choice("kernel", {"reference", "sse2", "avx2"});
        }) == "cal.h5:/demo/calibration/kernel: reference, sse2 or avx2; got \"avx2\\x0a\"");
  CHECK(refusal(document(), [](const CalibrationReader& r) { r.refuse("threads", "the same as this run's 2"); }) ==
        "cal.h5:/demo/calibration/threads: the same as this run's 2");
}

TEST_CASE("a calibration file is read whole and named in every error") {
  ScratchDir dir("calibration_reader");
  instrument::Recorder rec(0);
  instrument::ResultsDocument doc = document();
  doc.run = instrument::gather_results(rec, instrument::make_run_info("demo", MPI_COMM_SELF), MPI_COMM_SELF);
  const std::string path = (dir.path / "cal.h5").string();
  instrument::write_results(path, doc);
  const instrument::ResultsDocument back = instrument::read_calibration_file(path, kDemo);
  const CalibrationReader r(back, kDemo, path);
  CHECK(r.real("seconds", 1e-11, 1e-3, "seconds per cell") == 2.5e-9);
  try {
    r.whole("threads", 8, 16, "threads per rank");
    FAIL("threads = 4 is outside [8, 16]");
  } catch (const instrument::InputError& e) {
    CHECK(std::string(e.what()) == path + ":/demo/calibration/threads: an integer in [8, 16] (threads per rank); got 4");
  }
  const std::string absent = (dir.path / "absent.h5").string();
  CHECK_THROWS_WITH(instrument::read_calibration_file(absent, kDemo),
                    absent + ": cannot open the calibration results file: No such file or directory");
  CHECK_THROWS_WITH(instrument::read_calibration_file(dir.path.string(), kDemo),
                    Catch::Contains("the calibration results file is a directory"));
}
