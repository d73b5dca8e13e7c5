// Reads the /multigrid/grids table of a multigrid run's results file with instrument's reader
// and checks its working_set column (driver.cpp: the most bytes a process's sweep of the grid
// goes over, working_set_bytes in local_level.cpp) against what that counts. Run by
// results_grids.cmake after the run that wrote it: MG_RESULTS_FILE the file, MG_RESULTS_RANKS
// its processes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include "instrument/results_file.hpp"
#include "../results_table_column.hpp"
#include "multigrid/item_batches.hpp"
#include "multigrid/node_point.hpp"

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) FAIL(std::string(name) + " is not set (run by ctest: multigrid.results.grids_read.*)");
  return v;
}

// Per node a process holds: six vectors of doubles over its slots (x, b, r, y, diag_inv, d),
// its coordinates and its Dirichlet flag.
constexpr double kNodeBytes = 6 * sizeof(double) + sizeof(mg::NodePoint) + sizeof(std::uint8_t);
// Per cell, in its batch of the cell loop: a family's 10 node slots for 8 cells at the least
// (5 bytes a cell), a loose cell's 4 at the most (16 bytes); each of the two batch lists ends
// in a batch of up to 7 dead lanes.
constexpr double kFamilyBytesPerCell = 10.0 * sizeof(std::uint32_t) / 8;
constexpr double kLooseBytesPerCell = 4.0 * sizeof(std::uint32_t);
constexpr double kDeadLanesBytes = (mg::kBatch - 1) * (10 + 4) * sizeof(std::uint32_t);

}  // namespace

TEST_CASE("the results file's grids table holds each grid's working set a process", "[multigrid][results]") {
  const std::string path = env("MG_RESULTS_FILE");
  const std::int64_t ranks = std::stoll(env("MG_RESULTS_RANKS"));
  const instrument::ResultsDocument doc = instrument::read_results(path);
  REQUIRE(doc.run.info.app == "multigrid");
  REQUIRE(doc.run.info.nranks == ranks);
  const instrument::Table* t = doc.extras.find_table("/multigrid/grids");
  REQUIRE(t != nullptr);
  const auto& grid = column<std::int64_t>(*t, "grid");
  const auto& cells = column<std::int64_t>(*t, "cells");
  const auto& nodes = column<std::int64_t>(*t, "nodes");
  const auto& working_set = column<double>(*t, "working_set");
  REQUIRE(grid.size() >= 2);
  REQUIRE(working_set.size() == grid.size());
  const double p = static_cast<double>(ranks);
  for (std::size_t i = 0; i < grid.size(); ++i) {
    INFO("grid " << grid[i] << " (" << cells[i] << " cells, " << nodes[i] << " nodes) at p = " << ranks
                 << ": working_set " << working_set[i] << " bytes");
    CHECK(grid[i] == static_cast<std::int64_t>(i) + 1);  // the finest first
    CHECK(working_set[i] > 0);
    // Every node is held by some process and every cell by one, so the processes' working
    // sets add up to at least the nodes' and cells' bytes, and the largest is at least their
    // mean.
    const double n = static_cast<double>(nodes[i]), c = static_cast<double>(cells[i]);
    CHECK(working_set[i] >= (kNodeBytes * n + kFamilyBytesPerCell * c) / p);
    // No process holds a node twice, nor more than every cell.
    CHECK(working_set[i] <= kNodeBytes * n + kLooseBytesPerCell * c + kDeadLanesBytes);
    // A finer grid (8 times the cells) goes over more bytes than the next coarser one.
    if (i + 1 < grid.size()) CHECK(working_set[i] > working_set[i + 1]);
  }
}
