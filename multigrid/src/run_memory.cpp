// The memory of a run and of a projection from the counts alone (run_memory.hpp).
//
// Checked against the peak RSS of real runs (/usr/bin/time, Release build, AMD EPYC Zen 4;
// refined grids' cells as corners, their transfers as slot pairs, freed memory reused). On
// 2026-12-04 the marginal bytes a finest cell between --cube 6 and --cube 10, --grids 4
// (663552 and 3072000 finest cells), measured / estimated: multigrid at 1 process 72.8 /
// 66.8 (1.09), at 2 processes 53.0 / 50.1 a process (1.06); multigrid-model --procs 2 (grids
// with faces) 137.4 / 134.7 (1.02); the fixed share 24-27 MB (--cube 2 --grids 1 at 1 and 2
// processes). Since 2026-12-05 a run keeps its finest grid's cells and parts by parent (25 B
// for 8 cells, not 128, and no part list), its families in their batches only, moves its
// coarse mesh into the grids (no second copy) and frees its grids before the levels' vectors
// are written, and (that evening) its heap is on huge pages (AMD EPYC Zen 5): peaks of 90344
// kB (--cube 8, 1 process), 78720 kB for the larger process at 2, 138468 kB (--cube 10, 1
// process), 119684 kB (--cube 10, 2) and 2692756 kB (--cube 100 --grids 2), estimated
// 0.92-1.06 of them (ctest/multigrid/unit_run_memory.cpp). Since 2026-12-07 the finest grid's
// nodes are derived, not stored, and the heap's large blocks are no longer rounded up to whole
// huge pages, and each process of several keeps only its own parents' splits (Zen 5, medians
// of three): 70696 kB (--cube 8, 1 process), 58748 kB at 2, 112228 kB (--cube 10, 1), 87492 kB
// (--cube 10, 2), 2538948 kB (--cube 100 --grids 2, one run), estimated 0.97-1.05 of them.
#include "multigrid/run_memory.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "mesh/mesh.hpp"
#include "mesh/mesh_from_cells.hpp"

namespace mg {

namespace {

// Nodes a cell on a refined tetrahedral mesh: about 1/6 (the Kuhn cube exactly; cube-12
// refined 6 times 0.171); the larger of the two. (1/5, a bound, put the --cube 100 --grids 2
// peak 10% over once its coarse mesh was no longer copied.)
constexpr double kNodesPerCell = 0.171;
// Faces a cell: 4 each, those inside shared by two (cube-12 refined 6 times: 2.008).
constexpr double kFacesPerCell = 2.0;
// All grids of a hierarchy against its finest: 1 + 1/8 + 1/64 + ... < 8/7.
constexpr double kAllGrids = 8.0 / 7.0;
// What every process holds whatever the grids: MPI, bsplib's buffers, the program (24-27 MB measured).
constexpr double kFixedBytes = 26.0 * 1024 * 1024;
// The program's heap is on huge pages (instrument::advise_heap_huge_pages; its large arrays
// were before), and each 2 MiB of it is resident whole once touched: the gaps between its
// blocks and the last page of the live set (fitted: 4 MiB puts the five peaks measured on
// 2026-12-07 within 0.99-1.04; 12 MiB did while huge_capacity rounded each large block up to
// whole huge pages, whose ends were left half used; 6 MiB when only the large arrays were
// advised).
constexpr double kHugePageEndsBytes = 4.0 * 1024 * 1024;
constexpr std::uint64_t kMostCells = std::numeric_limits<std::uint64_t>::max();
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

// Per cell of a mesh made or read (the coarsest grid, or any grid of a sequence): the cell,
// its faces, its geometry and nodes, and per node the Dirichlet flag; a sequence's finer
// grids also their parents and coarse stencils (sequence_transfers_per_cell).
double read_grid_bytes_per_cell() {
  return sizeof(mesh::Cell) + kFacesPerCell * sizeof(mesh::Face) + sizeof(mesh::CellGeometry) +
         kNodesPerCell * (sizeof(mesh::Vec3) + sizeof(std::uint8_t));
}
double sequence_transfers_per_cell() { return sizeof(Index) + kNodesPerCell * sizeof(CoarseStencil); }

// Per cell of a refined grid: the cell (no geometry; a mesh::Cell and faces if kept, else its
// corners alone: Grid::corners), per node its coordinates, Dirichlet flag and the midpoint's
// edge (its parents and stencils are derived: Grid::parent, Grid::stencil).
double refined_grid_bytes_per_cell(GridFaces faces) {
  return (faces == GridFaces::kept ? sizeof(mesh::Cell) + kFacesPerCell * sizeof(mesh::Face) : sizeof(std::array<Index, 4>)) +
         kNodesPerCell * (sizeof(mesh::Vec3) + sizeof(std::uint8_t) + sizeof(std::array<Index, 2>));
}

// A run's finest grid keeps its cells by parent (Grid::splits: six midpoints and a diagonal,
// 25 B for 8 cells, in the process that holds the parent), not their corners, and derives its
// nodes' points (Grid::nodes_derived): the saving per cell, with every parent's split.
double by_parent_saving_per_cell() {
  return sizeof(std::array<Index, 4>) - (sizeof(std::array<Index, 6>) + sizeof(std::uint8_t)) / 8.0 +
         kNodesPerCell * sizeof(mesh::Vec3);
}

// The refinement with faces (refine_uniform) holds, while it makes the finest grid, its
// children's cells and their side pairs (20 + 20 B a cell) beside the grids: the model's peak
// (measured 137 B a finest cell against 97 for the grids it keeps).
double faces_refinement_bytes_per_cell() { return sizeof(mesh::CellNodes) + 4 * (sizeof(Index) + sizeof(std::uint8_t)); }

// The faceless refinement of a run holds, while it makes the finest grid, beside the grids:
// the parent grid's edges as counted (edges_by_low: 6 high ends a parent cell, 4 B each,
// before they are made unique) and two 8 B offsets a parent node; and where the parent is the
// coarsest grid (a mesh's cells), its corners copied (mesh::cell_corners). In bytes; the
// largest stage at none of the five sizes measured (the numbered grids are), kept since it
// is there (at many processes on 4 or more grids it is the largest).
double faceless_refinement_bytes(const GridsShape& g) {
  if (g.sequence || g.finest <= g.coarsest) return 0.0;
  const double parents = static_cast<double>(g.finest) / 8;
  const double copied = g.finest == 8 * g.coarsest ? parents * sizeof(std::array<Index, 4>) : 0.0;
  return parents * (6 * sizeof(Index) + 2 * kNodesPerCell * sizeof(std::size_t)) + copied;
}

// Every grid's cells together: a sequence's as counted, a refinement's 8 (finest - coarsest)
// / 7 + coarsest.
double all_cells(const GridsShape& g) {
  const double finest = static_cast<double>(g.finest), coarsest = static_cast<double>(g.coarsest);
  return g.sequence ? static_cast<double>(g.total) : 8 * (finest - coarsest) / 7 + coarsest;
}

// The cells in no family: a sequence's all, a refinement's coarsest grid's (the few cut from
// their families by a partition are left out).
double loose_cells(const GridsShape& g) { return static_cast<double>(g.sequence ? g.total : g.coarsest); }

// The partition of the grid METIS cuts at more than one part: the dual graph (an offset and
// 4 neighbours a cell), its idx_t copy for METIS, METIS's parts and ours, and METIS's own. A
// refined hierarchy partitions the coarsest grid with kMetisCellsPerPart cells a part
// (metis_grid): the coarsest if it has them, else one of fewer than 8 x that many, else the
// finest; a sequence its finest. A faceless refined grid is first copied to a mesh with
// faces (metis_partition_grid): not counted, since that grid has fewer than 8 x 128 P cells.
double partition_bytes_per_cell() {
  return 5.0 * sizeof(Index) + 5.0 * sizeof(std::int32_t) + 2.0 * sizeof(std::int32_t) + kMetisBytesPerCell;
}

// One process's own levels per cell it holds: a cell in a family its share of the family's
// batch (10 slots a family, 8 families, 64 cells) and shape, one in none its corners and its
// batch's share; and per node (its slots) the global index, coordinates, flags, coarse slots
// (a refinement's two, a sequence's stencil) and, once the grids are freed, the six vectors of
// the smoother (batch_local_levels).
double family_cell_bytes() { return sizeof(std::uint16_t) / 8.0 + sizeof(ItemBatches<10>::Batch) / 64.0; }
double loose_cell_bytes() { return sizeof(std::array<std::uint32_t, 4>) + sizeof(ItemBatches<4>::Batch) / 8.0; }
double own_node_bytes_per_cell(const GridsShape& g, bool with_vectors) {
  const double transfer = g.sequence ? sizeof(LocalLevel::SlotStencil) : sizeof(std::array<std::uint32_t, 2>);
  return kNodesPerCell * (sizeof(Index) + sizeof(NodePoint) + 2 + transfer + (with_vectors ? 6 * sizeof(double) : 0.0));
}
// The numbering's list of the finest grid's parents a process holds, in Morton order (a key,
// the parent and which children are its own: 16 B), live while it numbers that grid.
double numbering_parents_bytes(const GridsShape& g) {
  return g.sequence ? 0.0 : static_cast<double>(g.finest) / 8 * 16;
}
// All grids' own levels at one process (divided among `processes`): as numbered, or with
// their vectors.
double own_level_bytes(const GridsShape& g, bool with_vectors) {
  const double cells = all_cells(g), loose = loose_cells(g);
  return (cells - loose) * family_cell_bytes() + loose * loose_cell_bytes() + cells * own_node_bytes_per_cell(g, with_vectors);
}

}  // namespace

std::uint64_t finest_cells(std::uint64_t coarse_cells, int grids) {
  std::uint64_t cells = coarse_cells;
  for (int l = 1; l < grids; ++l) cells = cells > kMostCells / 8 ? kMostCells : 8 * cells;
  return cells;
}

GridsShape refined_grids(std::uint64_t coarse_cells, int grids, bool finest_by_parent) {
  return {coarse_cells, finest_cells(coarse_cells, grids), 0, false, finest_by_parent};
}

GridsShape grid_sequence(const std::vector<std::uint64_t>& cells) {
  GridsShape g{cells.empty() ? 0 : cells.front(), cells.empty() ? 0 : cells.back(), 0, true};
  for (std::uint64_t c : cells) g.total = g.total > kMostCells - c ? kMostCells : g.total + c;
  return g;
}

std::uint64_t hierarchy_bytes(const GridsShape& g, GridFaces faces) {
  const double coarsest = static_cast<double>(g.coarsest);
  if (g.sequence) {
    const double cells = all_cells(g);
    return bytes_of(cells * read_grid_bytes_per_cell() + (cells - coarsest) * sequence_transfers_per_cell());
  }
  const double by_parent =
      faces == GridFaces::omitted && g.finest_by_parent && g.finest > g.coarsest ? static_cast<double>(g.finest) : 0.0;
  return bytes_of(coarsest * read_grid_bytes_per_cell() + (all_cells(g) - coarsest) * refined_grid_bytes_per_cell(faces) -
                  by_parent * by_parent_saving_per_cell());
}

namespace {

double metis_cells(const GridsShape& g, int parts) {
  if (parts <= 1) return 0.0;
  const double finest = static_cast<double>(g.finest);
  if (g.sequence) return finest;
  const double enough = static_cast<double>(kMetisCellsPerPart) * parts;
  return std::min(finest, std::max(static_cast<double>(g.coarsest), 8 * enough));
}

}  // namespace

std::uint64_t run_peak_bytes(const GridsShape& g, int processes) {
  const double cells = all_cells(g);
  // The finest grid's splits (hierarchy_bytes counts every parent's): none while the grids
  // are refined (a run makes them after, at P > 1 after METIS), and then a process keeps its
  // own parents' (about a P-th; all at P = 1).
  const double splits = g.finest_by_parent && g.finest > g.coarsest && !g.sequence
                            ? static_cast<double>(g.finest) / 8 * (sizeof(std::array<Index, 6>) + sizeof(std::uint8_t))
                            : 0.0;
  const double grids = static_cast<double>(hierarchy_bytes(g, GridFaces::omitted)) - splits;
  // Every grid's parts, but a finest grid's kept by parent (FinestParts::by_parent).
  const double by_parent = g.finest_by_parent && g.finest > g.coarsest ? static_cast<double>(g.finest) : 0.0;
  const double parts = (cells - by_parent) * sizeof(std::int32_t);
  // While the levels are numbered, beside its own share as numbered: every grid's node slots
  // and node ranks (an offset and about one rank a node).
  const double numbered = own_level_bytes(g, false) / processes + cells * kNodesPerCell * 3 * sizeof(std::uint32_t) +
                          numbering_parents_bytes(g) / processes;
  const double metis = metis_cells(g, processes) * partition_bytes_per_cell();
  // METIS's arrays are freed before the levels are numbered: the larger of the two, beside the
  // grids and parts.
  const double with_grids = grids + splits / processes + parts + std::max(numbered, metis);
  // Then the grids, parts and node ranks are freed and the levels get their vectors
  // (solve_in_section on an input given up): the levels with the node slots.
  const double levels = own_level_bytes(g, true) / processes + cells * kNodesPerCell * sizeof(std::uint32_t);
  // Before either: the grids as the finest is made (its parent's edges beside them).
  const double refinement = grids + faceless_refinement_bytes(g);
  return bytes_of(std::max({refinement, with_grids, levels}) + kHugePageEndsBytes + kFixedBytes);
}

std::uint64_t projection_peak_bytes(const GridsShape& g, int largest_p) {
  const double cells = all_cells(g);
  const double refinement = g.sequence ? 0.0 : static_cast<double>(g.finest) * faces_refinement_bytes_per_cell();
  const double parts = cells * sizeof(std::int32_t);
  const double metis = metis_cells(g, largest_p) * partition_bytes_per_cell();
  // count_traffic's holders of each node of every grid (an offset and about one rank a node).
  const double holders = cells * kNodesPerCell * 2 * sizeof(std::uint32_t);
  return bytes_of(static_cast<double>(hierarchy_bytes(g, GridFaces::kept)) + std::max(refinement, parts + metis + holders) +
                  kFixedBytes);
}

}  // namespace mg
