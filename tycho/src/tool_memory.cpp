// The tools' memory from counts (tool_memory.hpp).
//
// Checked against the peak RSS of real runs (/usr/bin/time -v, Release build, 2026-12-01);
// ratios are measured / estimated:
//   tycho-refine cube-12.smesh --times 5 and 6 (393216 and 3145728 cells): 395 B a cell
//   between the two measured, 382 estimated (1.03); 1.26 GB in all at --times 6 (1.04).
//   tycho-model cube-1374.smesh --refine 1 and 2 (10992 and 87936 cells, S8: 80 directions),
//   --ranks 16: 779 B a cell between the two measured, 781 estimated (1.00); 87 MB in all at
//   --refine 2 (1.00), 82 MB at --ranks 1 (METIS is freed before the schedule is made); with
//   --mcps 1 (a step a task) 1.00 GB measured, 1.04 GB estimated (0.96).
#include "tycho/tool_memory.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tycho/mesh_types.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "tycho/step_history.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

namespace {

constexpr double kNodesPerCell = 1.0 / 5;  // cube-12 refined 6 times: 0.171
constexpr double kFacesPerCell = 2.0;      // cube-12 refined 6 times: 2.008
// The program, its libraries, the mesh read: tycho-refine's (6 MB measured at 49152 cells) and
// tycho-model's with HDF5 and the calibrations read (16 MB measured).
constexpr double kFixedBytes = 8.0 * 1024 * 1024;
constexpr double kModelFixedBytes = 16.0 * 1024 * 1024;
// project_schedule's ready queues at their fullest, per task of the schedule: the measured
// peaks leave 1.3 B a task beyond the arrays counted (cube-1374 refined twice, S8: about 8% of
// the tasks in the queues at once, 16 B each). The wavefronts are a smaller share of a larger
// mesh's tasks, so this errs high there.
constexpr double kReadyBytesPerTask = 1.3;
// METIS_PartGraphKway's own arrays per vertex (cell): its copy of the graph with vertex and
// edge weights and each coarsened graph (half the last: twice the first in all), each with
// xadj, adjncy, adjwgt (4 neighbours), vwgt, cmap, label, where: 2 x 15 idx_t. Measured by
// multigrid on the same METIS call: 127 B a cell (multigrid/src/run_memory.cpp).
constexpr double kMetisBytesPerCell = 30 * 4.0;

std::uint64_t bytes_of(double bytes) {
  const double most = static_cast<double>(std::numeric_limits<std::uint64_t>::max());
  return bytes >= most ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(std::ceil(bytes));
}

// A checked mesh with its geometry, per cell.
double mesh_bytes_per_cell() {
  return sizeof(Cell) + kFacesPerCell * sizeof(Face) + sizeof(CellGeometry) + kNodesPerCell * sizeof(Vec3);
}

// The last refinement's working set per cell of its result: the parent mesh (1/8), its sorted
// edges (6 a parent), the children, the new cells and faces and nodes, the four sides a cell
// sorted to find the faces and their runs (a vector grown by doubling: up to twice 2 a cell).
double refine_bytes_per_cell() {
  const double parent = mesh_bytes_per_cell() / 8 + 6.0 / 8 * 2 * sizeof(Index);
  const double side = 3 * sizeof(Index) + sizeof(Index) + 4;  // key, cell, local face (padded)
  const double run = 2 * sizeof(std::size_t);
  return parent + sizeof(mesh::CellNodes) + sizeof(Cell) + 4 * side + 2 * kFacesPerCell * run + kFacesPerCell * sizeof(Face) +
         kNodesPerCell * sizeof(Vec3);
}

// The .smesh file in memory (format_smesh): 9 words a cell, 5 a face, 3 a node.
double smesh_bytes_per_cell() { return 8 * (9 + 5 * kFacesPerCell + 3 * kNodesPerCell); }

}  // namespace

std::uint64_t refined_cell_count(std::uint64_t cells, int times) {
  constexpr std::uint64_t kMost = std::numeric_limits<std::uint64_t>::max();
  for (int k = 0; k < times; ++k) cells = cells > kMost / 8 ? kMost : 8 * cells;
  return cells;
}

std::uint64_t refine_tool_peak_bytes(std::uint64_t cells) {
  const double per_cell = std::max(mesh_bytes_per_cell() + smesh_bytes_per_cell(), refine_bytes_per_cell());
  return bytes_of(static_cast<double>(cells) * per_cell + kFixedBytes);
}

std::uint64_t model_tool_peak_bytes(std::uint64_t cells, int directions, std::int64_t mcps, int largest_p,
                                    Priority priority) {
  const bool levels = priority != Priority::octant, slabs = priority == Priority::octant || priority == Priority::band_octant;
  const double n = static_cast<double>(cells);
  const double tasks = n * directions;
  // Held throughout: the mesh, the parts (4 B a cell), the face normals.
  const double held = n * (mesh_bytes_per_cell() + 4.0 + kFacesPerCell * sizeof(Vec3));
  // Freed before the schedule is made: the dual graph (an offset and 4 neighbours a cell),
  // its idx_t copy, METIS's parts and its own arrays.
  const double partition = largest_p > 1 ? n * (5 * 4.0 + 5 * 4.0 + 4.0 + kMetisBytesPerCell) : 0.0;
  // Per task: its inflow count (1 B) and its b-level (2 B; none for octant), per direction
  // a flag a face, and the ready queues (16 B a ready task; 8% of the tasks ready at once, as
  // measured).
  const double per_task = 1 + (levels ? 2 : 0) + kFacesPerCell * 1 + kReadyBytesPerTask;
  // A step of at most MCPS tasks; a message out and one in at most, each with its record.
  const double steps = tasks / static_cast<double>(std::max<std::int64_t>(mcps, 1));
  // Per cell: its place in its rank's order (4 B), and one rank's temporaries while that order
  // is made (Morton keys and centroids, 52 B a cell), counted for the whole mesh (P = 1);
  // octant and band-octant: each cell's slab in each octant (32 B) and one rank's temporaries
  // while they are made (centroids, projections, slabs: 72 B a cell).
  const double per_cell = 4.0 + 52.0 + (slabs ? 32.0 + 72.0 : 0.0);
  const double schedule = tasks * per_task + n * per_cell + steps * (sizeof(StepRecord) + 2 * sizeof(MessageRecord));
  return bytes_of(held + std::max(partition, schedule) + kModelFixedBytes);
}

}  // namespace tycho
