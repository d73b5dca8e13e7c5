// /multigrid/calibration read back by read_c1_calibration: a good file gives its point, and
// every constant outside what a machine can measure is refused with the file and the key
// (C1 = 1e300 s once printed "+inf%" beside eq. 5).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "../scratch_dir.hpp"
#include "instrument/error.hpp"
#include "instrument/recorder.hpp"
#include "instrument/results_file.hpp"
#include "instrument/run_results.hpp"
#include "multigrid/results_output.hpp"

namespace {

// A multigrid results file whose calibration group holds a measured-looking point, then
// `edit` applied to it.
std::string write_file(const ScratchDir& dir, const std::string& name,
                       const std::function<void(instrument::Attributes&)>& edit = {}) {
  instrument::Recorder rec(0);
  instrument::ResultsDocument doc;
  doc.run = instrument::gather_results(rec, instrument::make_run_info("multigrid", MPI_COMM_SELF), MPI_COMM_SELF);
  instrument::Attributes& a = doc.extras.group_attributes["/multigrid/calibration"];
  a["c1_seconds_per_cell"] = 2.2e-9;
  a["c1_loose_seconds_per_cell"] = 3.1e-9;
  a["cells_per_process"] = 384.0;
  a["p"] = std::int64_t{1};
  a["mesh"] = std::string("the default cube");
  a["cell_kernel"] = std::string("avx2");
  a["c1_cycles"] = std::string("median");
  if (edit) edit(a);
  const std::string path = (dir.path / name).string();
  instrument::write_results(path, doc);
  return path;
}

std::string refusal(const std::string& path) {
  try {
    mg::read_c1_calibration(path);
  } catch (const instrument::InputError& e) {
    const std::string what = e.what();
    return what.rfind(path, 0) == 0 ? what.substr(path.size()) : "(file not named) " + what;
  }
  return "no error";
}

}  // namespace

TEST_CASE("a C1 calibration is read back, and implausible constants are refused by key") {
  ScratchDir dir("mg_calibration");
  const std::string good_path = write_file(dir, "good.h5");
  const mg::C1Point good = mg::read_c1_calibration(good_path);
  CHECK(good.source == good_path);
  CHECK(good.seconds == 2.2e-9);
  CHECK(good.cells_per_process == 384.0);
  CHECK(good.p == 1);
  CHECK(good.loose_seconds == 3.1e-9);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const char* c1 = ":/multigrid/calibration/c1_seconds_per_cell: seconds per cell in [1e-11, 0.001]; got ";
  CHECK(refusal(write_file(dir, "huge.h5", [](auto& a) { a["c1_seconds_per_cell"] = 1e300; })) == std::string(c1) + "1e+300");
  CHECK(refusal(write_file(dir, "tiny.h5", [](auto& a) { a["c1_seconds_per_cell"] = 1e-300; })) == std::string(c1) + "1e-300");
  CHECK(refusal(write_file(dir, "nan.h5", [nan](auto& a) { a["c1_seconds_per_cell"] = nan; })) == std::string(c1) + "nan");
  CHECK(refusal(write_file(dir, "zero.h5", [](auto& a) { a["c1_seconds_per_cell"] = 0.0; })) == std::string(c1) + "0");
  CHECK(refusal(write_file(dir, "loose.h5", [](auto& a) { a["c1_loose_seconds_per_cell"] = 1e300; })) ==
        ":/multigrid/calibration/c1_loose_seconds_per_cell: seconds per cell of cells in no family, 0 or in [1e-11, 0.001]; "
        "got 1e+300");
  CHECK(refusal(write_file(dir, "npp.h5", [](auto& a) { a["cells_per_process"] = -5.0; })) ==
        ":/multigrid/calibration/cells_per_process: coarsest grid's cells per process in [1e-06, 1.09951e+12]; got -5");
  // A file from before C1 was a median cycle's: read, and its point named as such.
  const std::string older_path = write_file(dir, "older.h5", [](auto& a) { a.erase("c1_cycles"); });
  const mg::C1Point older = mg::read_c1_calibration(older_path);
  CHECK(older.seconds == 2.2e-9);
  CHECK(older.source == older_path + " (an older file: C1 the mean of its cycles)");
  CHECK(refusal(write_file(dir, "cycles.h5", [](auto& a) { a["c1_cycles"] = std::string("first"); })) ==
        ":/multigrid/calibration/c1_cycles: median or mean; got \"first\"");
  CHECK(refusal(write_file(dir, "p.h5", [](auto& a) { a["p"] = std::int64_t{0}; })) ==
        ":/multigrid/calibration/p: an integer in [1, 2^24] (the processes of the run); got 0");
}
