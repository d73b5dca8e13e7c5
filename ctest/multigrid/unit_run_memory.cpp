// run_memory: the up-front estimates of a run's and a projection's memory stay near the peak
// RSS measured (/usr/bin/time -v, 2026-12-01, Release) at --cube 8 --grids 4 (1572864 finest
// cells): multigrid 577832 kB at 1 process, 731028 kB a process at 2; multigrid-model
// --procs 2 714848 kB; and at --cube 100 --grids 2 (48000000 cells, 1 process) 15788944 kB.
// Within 10%: an estimate far above refuses runs that fit, one far below lets a bad_alloc through.
#include <catch2/catch.hpp>

#include <cstdint>

#include "multigrid/run_memory.hpp"

namespace {

double ratio(std::uint64_t estimate, double measured_kb) { return static_cast<double>(estimate) / (measured_kb * 1024); }

}  // namespace

TEST_CASE("finest_cells: 8 a cell a grid, saturated", "[run_memory]") {
  CHECK(mg::finest_cells(6 * 8 * 8 * 8, 4) == 1572864);
  CHECK(mg::finest_cells(48, 8) == 100663296);
  CHECK(mg::finest_cells(48, 1) == 48);
  CHECK(mg::finest_cells(std::uint64_t{1} << 62, 3) == UINT64_MAX);
}

TEST_CASE("the estimates are within 10% of the measured peaks", "[run_memory]") {
  CHECK(ratio(mg::run_peak_bytes(1572864, 1), 577832) == Approx(1.0).margin(0.1));
  CHECK(ratio(mg::run_peak_bytes(1572864, 2), 731028) == Approx(1.0).margin(0.1));
  CHECK(ratio(mg::projection_peak_bytes(1572864, 2), 714848) == Approx(1.0).margin(0.1));
  CHECK(ratio(mg::run_peak_bytes(48000000, 1), 15788944) == Approx(1.0).margin(0.1));
}

TEST_CASE("the issue's commands need more than this kind of machine has", "[run_memory]") {
  // --cube 200 (3 grids) at 2 processes; --cube 2 --grids 8 projected.
  CHECK(mg::run_peak_bytes(mg::finest_cells(48000000, 3), 2) > (std::uint64_t{1} << 40));
  CHECK(mg::projection_peak_bytes(mg::finest_cells(48, 8), 16) > (std::uint64_t{40} << 30));
  // The hierarchy alone grows with the cells: the estimate never saturates below them.
  CHECK(mg::hierarchy_bytes(1000) < mg::hierarchy_bytes(8000));
}
