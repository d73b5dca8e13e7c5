// The memory of a run and of a projection from the counts alone (run_memory.hpp).
//
// Checked against the peak RSS of real runs (/usr/bin/time -v or VmHWM, Release build,
// 2026-12-01); ratios are measured / estimated. The marginal bytes a finest cell between
// --cube 8 --grids 3 and --cube 8 --grids 4 (196608 and 1572864 finest cells):
//   multigrid at 1 process: 361 measured, 343 estimated (1.05);
//   multigrid at 2 processes: 456 a process measured, 449 estimated (1.02);
//   multigrid-model --procs 2: 450 measured, 451 estimated (1.00);
//   the fixed share: 22-24 MB measured (93 MB at 196608 cells, 1 process).
// And whole: multigrid --cube 100 --grids 2 (48000000 finest cells, 1 process) peaked at
// 16.2 GB (VmHWM) against 16.5 GB estimated (0.98).
#include "multigrid/run_memory.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "mesh/mesh.hpp"

namespace mg {

namespace {

// Nodes a cell on a refined tetrahedral mesh: about 1/6 (the Kuhn cube exactly; cube-12
// refined 6 times 0.171); 1/5 bounds both.
constexpr double kNodesPerCell = 1.0 / 5;
// Faces a cell: 4 each, those inside shared by two (cube-12 refined 6 times: 2.008).
constexpr double kFacesPerCell = 2.0;
// All grids of a hierarchy against its finest: 1 + 1/8 + 1/64 + ... < 8/7.
constexpr double kAllGrids = 8.0 / 7.0;
// What every process holds whatever the grids: MPI, bsplib's buffers, the program (22 MB measured).
constexpr double kFixedBytes = 24.0 * 1024 * 1024;
// METIS_PartGraphKway's own arrays, per vertex (cell) of the graph: its copy of the graph with
// vertex and edge weights and each coarsened graph (about half the last, so twice the first
// in all), each with xadj, adjncy, adjwgt (4 neighbours a cell), vwgt, cmap, label, where:
// 2 x 15 idx_t. The one figure not from our structs; the peaks at 2 processes, less what our
// arrays account for, leave 127 B a cell for it.
constexpr double kMetisBytesPerCell = 30 * 4.0;

std::uint64_t bytes_of(double bytes) {
  const double most = static_cast<double>(std::numeric_limits<std::uint64_t>::max());
  return bytes >= most ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(std::ceil(bytes));
}

// Per cell of one grid: its mesh (cells, faces, nodes, geometry) and the grid's transfers
// (parent per cell; per node the Dirichlet flag, the coarse stencil, the midpoint's edge).
double grid_bytes_per_cell() {
  const double mesh = sizeof(mesh::Cell) + kFacesPerCell * sizeof(mesh::Face) + sizeof(mesh::CellGeometry) +
                      kNodesPerCell * sizeof(mesh::Vec3);
  const double transfers =
      sizeof(Index) + kNodesPerCell * (sizeof(std::uint8_t) + sizeof(CoarseStencil) + sizeof(std::array<Index, 2>));
  return mesh + transfers;
}

// The partition of the finest grid at more than one part: the dual graph (an offset and 4
// neighbours a cell), its idx_t copy for METIS, METIS's parts and ours, and METIS's own. A
// refined hierarchy partitions a coarser grid (metis_grid) unless none has 128 cells a part;
// the finest is kept here as the bound, since which grid it is depends on P.
double partition_bytes_per_cell() {
  return 5.0 * sizeof(Index) + 5.0 * sizeof(std::int32_t) + 2.0 * sizeof(std::int32_t) + kMetisBytesPerCell;
}

// One process's own levels per cell it holds: corners as slots, families and their batches,
// and per node (its slots) the global index, coordinates, flags, coarse stencil and the six
// vectors of the smoother; plus the slot of every node of the grid (not only its own).
double own_level_bytes_per_cell() {
  const double cells = sizeof(std::array<std::uint32_t, 4>) + sizeof(std::array<std::uint32_t, 10>) / 8.0 +
                       sizeof(ItemBatches<10>::Batch) / 64.0;  // a batch: 8 families, 64 cells
  const double nodes =
      kNodesPerCell * (sizeof(Index) + sizeof(NodePoint) + 2 + sizeof(LocalLevel::SlotStencil) + 6 * sizeof(double));
  return cells + nodes;
}

}  // namespace

std::uint64_t finest_cells(std::uint64_t coarse_cells, int grids) {
  std::uint64_t cells = coarse_cells;
  constexpr std::uint64_t kMost = std::numeric_limits<std::uint64_t>::max();
  for (int l = 1; l < grids; ++l) cells = cells > kMost / 8 ? kMost : 8 * cells;
  return cells;
}

std::uint64_t hierarchy_bytes(std::uint64_t finest) {
  return bytes_of(static_cast<double>(finest) * kAllGrids * grid_bytes_per_cell());
}

std::uint64_t run_peak_bytes(std::uint64_t finest, int processes) {
  const double cells = static_cast<double>(finest);
  const double parts = cells * kAllGrids * sizeof(std::int32_t);
  const double own = cells * kAllGrids * (own_level_bytes_per_cell() / processes + kNodesPerCell * sizeof(std::uint32_t));
  const double metis = processes > 1 ? cells * partition_bytes_per_cell() : 0.0;
  // METIS's arrays are freed before the levels are built: the larger of the two.
  return bytes_of(static_cast<double>(hierarchy_bytes(finest)) + parts + std::max(own, metis) + kFixedBytes);
}

std::uint64_t projection_peak_bytes(std::uint64_t finest, int largest_p) {
  const double cells = static_cast<double>(finest);
  const double parts = cells * kAllGrids * sizeof(std::int32_t);
  const double metis = largest_p > 1 ? cells * partition_bytes_per_cell() : 0.0;
  // count_traffic's holders of each node of every grid (an offset and about one rank a node).
  const double holders = cells * kAllGrids * kNodesPerCell * 2 * sizeof(std::uint32_t);
  return bytes_of(static_cast<double>(hierarchy_bytes(finest)) + parts + metis + holders + kFixedBytes);
}

}  // namespace mg
