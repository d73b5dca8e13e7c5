// Calibrations keyed by what W_g depends on, and the iteration's work outside the sweeps.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "instrument/error.hpp"
#include "instrument/results_file.hpp"
#include "sweep3d/model/calibration.hpp"
#include "sweep3d/model/iteration_model.hpp"

using namespace sweep3d::model;

namespace {
WorkCalibration cal(int mmi, int threads, const char* kernel, double wg) {
  WorkCalibration c;
  c.mmi = mmi;
  c.mk = 10;
  c.threads = threads;
  c.kernel = kernel;
  c.wg_s = c.wg_fixup_s = wg;
  c.w_before_s_per_cell = 2e-9;
  c.w_after_s_per_cell = 1e-9;
  c.file = "cal.h5";
  return c;
}
}  // namespace

TEST_CASE("a calibration is found only for the same mmi, threads and kernel") {
  CalibrationSet set;
  set.add(cal(6, 1, "avx512", 1.0e-9));
  set.add(cal(3, 1, "avx512", 1.9e-9));
  REQUIRE(set.find(3, 1, "avx512") != nullptr);
  CHECK(set.find(3, 1, "avx512")->wg_s == 1.9e-9);
  CHECK(set.find(3, 2, "avx512") == nullptr);
  CHECK(set.find(3, 1, "avx2") == nullptr);
  CHECK(set.find(1, 1, "avx512") == nullptr);
  const std::string why = set.missing(1, 1, "avx512");
  CHECK(why.find("no calibration at mmi = 1") != std::string::npos);
  CHECK(why.find("--mmi 1") != std::string::npos);
  CHECK(why.find("cal.h5 (1 rank, mmi = 6, mk = 10, avx512, 1 thread)") != std::string::npos);
  set.add(cal(3, 1, "avx512", 2.0e-9));  // the same key again replaces it
  CHECK(set.entries().size() == 2);
  CHECK(set.find_mmi(3)->wg_s == 2.0e-9);
}

TEST_CASE("the iteration's work: per-cell costs on the largest rank, two allreduces") {
  KbaShape s;
  s.npe_i = 2;
  s.npe_j = 3;
  s.it_g = 21;  // rank 0: 11 x 4 x 5 cells
  s.jt_g = 10;
  s.kt = 5;
  MachineCosts m;
  int asked_ranks = 0;
  m.allreduce = [&](int nranks, std::int64_t bytes) {
    asked_ranks = nranks;
    CHECK(bytes == 8);
    return 3e-6;
  };
  const IterationWork w = iteration_work(s, cal(3, 1, "avx512", 1e-9), m);
  CHECK(w.w_before == Approx(2e-9 * 11 * 4 * 5));
  CHECK(w.w_after == Approx(1e-9 * 11 * 4 * 5));
  CHECK(w.reductions == Approx(6e-6));
  CHECK(asked_ranks == 6);
}

namespace {

// A results file of a sweep3d run whose calibration holds `key` = `value` (the others valid).
std::string calibration_file(const std::string& key, instrument::AttributeValue value, bool faces = false) {
  instrument::ResultsDocument doc;
  doc.run.info.app = "sweep3d";
  doc.run.info.nranks = 1;
  const std::string g = "/sweep3d/calibration";
  doc.extras.set_attribute(g, "wg_s", 1.9e-9);
  doc.extras.set_attribute(g, "wg_fixup_s", 2.5e-9);
  doc.extras.set_attribute(g, "w_before_s_per_cell", 2e-9);
  doc.extras.set_attribute(g, "w_after_s_per_cell", 1e-9);
  doc.extras.set_attribute(g, "mmi", std::int64_t{3});
  doc.extras.set_attribute(g, "mk", std::int64_t{10});
  doc.extras.set_attribute(g, "threads", std::int64_t{1});
  doc.extras.set_attribute(g, "kernel", std::string("avx2"));
  if (faces) {  // face_work.hpp's figures, as a one-rank run of 50 x 50 cells a plane writes them
    for (const char* a : {"i", "j"}) {
      doc.extras.set_attribute(g, std::string("face_fill_") + a + "_s", 0.1e-9);
      doc.extras.set_attribute(g, std::string("face_leak_") + a + "_s", 0.6e-9);
      doc.extras.set_attribute(g, std::string("face_unpack_") + a + "_s", 0.65e-9);
      doc.extras.set_attribute(g, std::string("face_pack_") + a + "_s", 0.85e-9);
    }
    doc.extras.set_attribute(g, "face_edge_share_s", 2 * 0.7e-9 / 50);
  }
  if (!key.empty()) doc.extras.set_attribute(g, key, std::move(value));
  const std::string path =
      "unit_calibration_" + std::string(faces ? "faces_" : "") + (key.empty() ? std::string("valid") : key) + ".h5";
  instrument::write_results(path, doc);
  return path;
}

std::string error_reading(const std::string& path) {
  try {
    read_calibration(path);
  } catch (const instrument::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every value of a calibration is range-checked, the range named") {
  using Catch::Contains;
  const WorkCalibration ok = read_calibration(calibration_file("", 0.0));
  CHECK(ok.wg_s == 1.9e-9);
  CHECK(ok.wg_fixup_s == 2.5e-9);
  CHECK(ok.mmi == 3);
  CHECK(ok.kernel == "avx2");
  const std::string wg = "seconds per cell-angle in [1e-12, 0.001]; got ";
  CHECK_THAT(error_reading(calibration_file("wg_fixup_s", std::nan(""))),
             Contains("unit_calibration_wg_fixup_s.h5:/sweep3d/calibration/wg_fixup_s: " + wg + "nan"));
  CHECK_THAT(error_reading(calibration_file("wg_fixup_s", -1.0)), Contains("wg_fixup_s: " + wg + "-1"));
  CHECK_THAT(error_reading(calibration_file("wg_s", 0.0)), Contains("wg_s: " + wg + "0"));
  CHECK_THAT(error_reading(calibration_file("wg_s", 1e308)), Contains("wg_s: " + wg + "1e+308"));
  CHECK_THAT(error_reading(calibration_file("w_before_s_per_cell", HUGE_VAL)),
             Contains("w_before_s_per_cell: seconds per iteration and cell in [0, 0.001]; got inf"));
  CHECK_THAT(error_reading(calibration_file("w_after_s_per_cell", -1e-9)), Contains("w_after_s_per_cell: seconds per iteration and cell in [0, 0.001]; got -1e-09"));
  CHECK_THAT(error_reading(calibration_file("mmi", std::int64_t{4})), Contains("mmi: an integer 1, 2, 3 or 6 (angles per block); got 4"));
  CHECK_THAT(error_reading(calibration_file("mk", std::int64_t{1} << 40)), Contains("mk: an integer in [1, 2^24] (k-planes per block); got 1099511627776"));
  CHECK_THAT(error_reading(calibration_file("threads", std::int64_t{100000})), Contains("threads: an integer in [1, 64] (OpenMP threads per rank); got 100000"));
  CHECK_THAT(error_reading(calibration_file("kernel", std::string("avx2\n\x1b[31m"))),
             Contains("kernel: reference, sse2, avx2 or avx512; got \"avx2\\x0a\\x1b[31m\""));
}

TEST_CASE("a calibration path that is not a regular file is refused without blocking") {
  CHECK_THAT(error_reading("/dev/zero"), Catch::Contains("/dev/zero: the calibration results file is a character device"));
  CHECK_THAT(error_reading("."), Catch::Contains("is a directory"));
}

TEST_CASE("a calibration's faces (face_work.hpp): read and range-checked, or why they are not priced") {
  using Catch::Contains;
  const WorkCalibration faces = read_calibration(calibration_file("", 0.0, true));
  CHECK(faces.faces.priced);
  CHECK(faces.faces.fill_s[1] == 0.1e-9);
  CHECK(faces.faces.pack_s[0] == 0.85e-9);
  CHECK(faces.faces.edge_share_s == Approx(2.8e-11));
  CHECK(faces.faces.volume_w(faces.wg_s) == Approx(1.9e-9 - 2.8e-11));
  // Older files: W_g whole, and the reason said.
  const WorkCalibration older = read_calibration(calibration_file("", 0.0));
  CHECK_FALSE(older.faces.priced);
  CHECK(older.faces_why == "the file is older than the faces' probe");
  const WorkCalibration why = read_calibration(calibration_file("face_why_not", std::string("calibrated on 2 ranks")));
  CHECK_FALSE(why.faces.priced);
  CHECK(why.faces_why == "calibrated on 2 ranks");
  auto faces_error = [](const std::string& key, instrument::AttributeValue v) {
    return error_reading(calibration_file(key, std::move(v), true));
  };
  CHECK_THAT(faces_error("face_pack_j_s", -1e-9), Contains("face_pack_j_s: seconds per face value in [0, 1e-05]; got -1e-09"));
  CHECK_THAT(faces_error("face_fill_i_s", std::nan("")), Contains("face_fill_i_s: seconds per face value in [0, 1e-05]; got nan"));
  // The faces' share of W_g must leave its cells a positive part.
  CHECK_THAT(faces_error("face_edge_share_s", 1.9e-9),
             Contains("face_edge_share_s: seconds per cell-angle of W_g its faces took in [0, 1.8981e-09]; got 1.9e-09"));
}
