// Calibrations keyed by what W_g depends on, and the iteration's work outside the sweeps.
#include <catch2/catch.hpp>

#include "calibration.hpp"
#include "iteration_model.hpp"

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
