// run_memory: the up-front estimates of a run's and a projection's memory stay near the peak
// RSS measured (/usr/bin/time -f %M, Release; multigrid on 2026-12-07, AMD EPYC Zen 5, with
// the finest grid's cells and parts kept by parent (each process its own parents' splits)
// and its nodes derived, the families in their batches only, the coarse mesh moved into the
// grids, the grids freed before the levels' vectors and the heap on huge pages, its blocks
// not rounded up to them, medians of three;
// multigrid-model on 2026-12-04, AMD EPYC Zen 4) at --cube 8 --grids 4 (1572864 finest
// cells): multigrid 70696 kB at 1 process, 58748 kB at 2 (the larger process, /usr/bin/time
// around mpiexec); multigrid-model --procs 2 239432 kB; at --cube 10 --grids 4 (3072000
// cells) 112228 kB at 1 process and 87492 kB at 2; and at --cube 100 --grids 2 (48000000
// cells, 1 process, one run) 2538948 kB. Within 10%:
// an estimate far above refuses runs that fit, one far below lets a bad_alloc through.
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
  // A run's grids (the finest kept by parent); the projection's keep faces and cells.
  const mg::GridsShape cube8 = mg::refined_grids(6 * 8 * 8 * 8, 4, true), cube10 = mg::refined_grids(6 * 10 * 10 * 10, 4, true);
  const mg::GridsShape cube8_stored = mg::refined_grids(6 * 8 * 8 * 8, 4);
  REQUIRE(cube8.finest == 1572864);
  CHECK(ratio(mg::run_peak_bytes(cube8, 1), 70696) == Approx(1.0).margin(0.1));
  CHECK(ratio(mg::run_peak_bytes(cube8, 2), 58748) == Approx(1.0).margin(0.1));
  CHECK(ratio(mg::run_peak_bytes(cube10, 1), 112228) == Approx(1.0).margin(0.1));
  CHECK(ratio(mg::run_peak_bytes(cube10, 2), 87492) == Approx(1.0).margin(0.1));
  CHECK(ratio(mg::projection_peak_bytes(cube8_stored, 2), 239432) == Approx(1.0).margin(0.1));
  // With --partition the finest grid's cells are stored: 16 B a cell more.
  CHECK(mg::run_peak_bytes(cube8_stored, 1) - mg::run_peak_bytes(cube8, 1) > 12 * 1572864);
  CHECK(ratio(mg::run_peak_bytes(mg::refined_grids(6 * 100 * 100 * 100, 2, true), 1), 2538948) == Approx(1.0).margin(0.1));
}

TEST_CASE("commands too large for this kind of machine (24 GiB) are seen to be", "[run_memory]") {
  // --cube 200 (3 grids) at 2 processes, about 64 GiB; --cube 2 --grids 9 projected (805306368
  // finest cells, about 108 GB), where --grids 8 (13.6 GB) now fits.
  constexpr std::uint64_t kMachine = std::uint64_t{24} << 30;
  CHECK(mg::run_peak_bytes(mg::refined_grids(48000000, 3, true), 2) > 2 * kMachine);
  CHECK(mg::projection_peak_bytes(mg::refined_grids(48, 9), 16) > 3 * kMachine);
  CHECK(mg::projection_peak_bytes(mg::refined_grids(48, 8), 16) < kMachine);
  // The hierarchy alone grows with the cells: the estimate never saturates below them.
  CHECK(mg::hierarchy_bytes(mg::refined_grids(1000, 2), mg::GridFaces::omitted) <
        mg::hierarchy_bytes(mg::refined_grids(8000, 2), mg::GridFaces::omitted));
  // A sequence's grids are meshes read, with faces and geometry: dearer than a refinement's;
  // and a sequence of slow growth holds more cells than a refinement to the same finest grid.
  CHECK(mg::hierarchy_bytes(mg::grid_sequence({1000, 8000, 64000}), mg::GridFaces::omitted) >
        mg::hierarchy_bytes(mg::refined_grids(1000, 3), mg::GridFaces::omitted));
  CHECK(mg::run_peak_bytes(mg::grid_sequence({8000, 16000, 32000, 64000}), 1) >
        mg::run_peak_bytes(mg::grid_sequence({1000, 8000, 64000}), 1));
}
