// tool_memory: the up-front estimates of tycho-refine's and tycho-model's memory stay near the
// peak RSS measured (/usr/bin/time -v, 2026-12-01, Release): tycho-refine cube-12 --times 6
// (3145728 cells) 1226580 kB; tycho-model cube-1374 --refine 2 (87936 cells, S8) --ranks 16
// 85144 kB, with --mcps 1 978160 kB. Within 10%: an estimate far above refuses runs that fit,
// one far below lets a bad_alloc through.
#include <catch2/catch.hpp>

#include <cstdint>

#include "tycho/sweep_plan.hpp"
#include "tycho/tool_memory.hpp"

namespace {

double ratio(std::uint64_t estimate, double measured_kb) { return static_cast<double>(estimate) / (measured_kb * 1024); }

}  // namespace

TEST_CASE("refined_cell_count: 8 a cell a level, saturated", "[tool_memory]") {
  CHECK(tycho::refined_cell_count(12, 7) == 25165824);
  CHECK(tycho::refined_cell_count(12, 0) == 12);
  CHECK(tycho::refined_cell_count(std::uint64_t{1} << 62, 2) == UINT64_MAX);
}

TEST_CASE("the estimates are within 10% of the measured peaks", "[tool_memory]") {
  CHECK(ratio(tycho::refine_tool_peak_bytes(3145728), 1226580) == Approx(1.0).margin(0.1));
  CHECK(ratio(tycho::model_tool_peak_bytes(87936, 80, 512, 16, tycho::Priority::blevel), 85144) == Approx(1.0).margin(0.1));
  CHECK(ratio(tycho::model_tool_peak_bytes(87936, 80, 1, 16, tycho::Priority::blevel), 978160) == Approx(1.0).margin(0.1));
}

TEST_CASE("larger options need more", "[tool_memory]") {
  CHECK(tycho::model_tool_peak_bytes(1000, 80, 512, 16, tycho::Priority::blevel) < tycho::model_tool_peak_bytes(1000, 168, 512, 16, tycho::Priority::blevel));
  CHECK(tycho::model_tool_peak_bytes(1000, 80, 512, 1, tycho::Priority::blevel) <= tycho::model_tool_peak_bytes(1000, 80, 512, 16, tycho::Priority::blevel));
  CHECK(tycho::refine_tool_peak_bytes(8000) > tycho::refine_tool_peak_bytes(1000));
}

TEST_CASE("octant's projection keeps slabs, not b-levels", "[tool_memory]") {
  // No b-level a task (2 B), a slab per cell and octant and its temporaries (104 B a cell): at
  // 80 directions 56 B a cell less than blevel's.
  const double blevel = static_cast<double>(tycho::model_tool_peak_bytes(1000, 80, 512, 16, tycho::Priority::blevel));
  const double octant = static_cast<double>(tycho::model_tool_peak_bytes(1000, 80, 512, 16, tycho::Priority::octant));
  CHECK(blevel - octant == Approx((2.0 * 80 - 104) * 1000).margin(2));
  // band-octant keeps both: octant's slabs and blevel's b-levels.
  const double band_octant = static_cast<double>(tycho::model_tool_peak_bytes(1000, 80, 512, 16, tycho::Priority::band_octant));
  CHECK(band_octant - blevel == Approx(104.0 * 1000).margin(2));
}
