// Where each grid's cells and nodes live. METIS (mesh::metis_partition) partitions one grid of
// a refined hierarchy: the coarsest with at least kMetisCellsPerPart cells a part, so that its
// cost is next to nothing and its balance still METIS's; the finer grids inherit its parts (a
// child cell goes to its parent's part: the partition refined with the grids). Each coarser
// cell goes to the part most of its children are in (ties to the lowest part), as Hill,
// Crumpton & Burgess place their coarse grids: its eight refined cells, or in a sequence of
// independent meshes (no parent to inherit from, so METIS partitions the finest) the cells
// whose centroids it holds. The imbalance this causes on the coarse grids is what part_sizes
// reports.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "multigrid/hierarchy.hpp"
#include "mesh/partition.hpp"

namespace mg {

// The fewest cells a part of the grid METIS partitions. On the 3^3, 4^3 and 8^3 Kuhn cubes
// over 3 grids at 2 to 16 parts (multigrid-model), K = 32, 64, 128 and 256 all keep every
// grid's imbalance within METIS's 1.03 and the finest grid's exchange (h) within 12% of
// METIS's own partition of it (often below); 128 was the best of them at 4 parts and never
// the worst.
constexpr std::size_t kMetisCellsPerPart = 128;

// The grid METIS partitions into `parts`: the coarsest with at least kMetisCellsPerPart
// cells a part among those every finer grid refines (Grid::refined), or the finest if none.
std::size_t metis_grid(const std::vector<Grid>& grids, int parts);

// METIS's partition of `grid` into `parts` (mesh::metis_partition), on a refined grid (no
// faces: build_hierarchy) after mesh::mesh_from_cells found its faces: the faces refinement
// would have numbered, so the same partition. Errors: metis_partition's.
mesh::Partition metis_partition_grid(const Grid& grid, int parts, const std::string& name);

// parts[l][c]: the part of cell c of grids[l], from `partition` of grids[at] (parts[at] is
// its part_of_cell): a finer cell takes its parent's part (every grid above `at` refined), a
// coarser one the part most of its children are in. FinestParts::by_parent leaves the finest
// grid's list empty where it would be its parents' parts repeated (the finest grid refines
// `at` or a grid above it): cell c's part is then parts[l - 1][c / 8] (part_of below), and a
// run does not write 4 bytes for each of its cells (12 MB at --cube 10 --grids 4, on every
// process). number_local_levels and grid_part_sizes read either.
enum class FinestParts { stored, by_parent };
std::vector<std::vector<std::int32_t>> inherit_parts(const std::vector<Grid>& grids, std::size_t at,
                                                     const mesh::Partition& partition,
                                                     FinestParts finest = FinestParts::stored);
// Whether grid l's parts are kept by parent (FinestParts::by_parent).
bool parts_by_parent(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts, std::size_t l);
// The part of cell c of grid l, stored or kept by parent.
inline std::int32_t part_of(const std::vector<std::vector<std::int32_t>>& parts, std::size_t l, std::size_t c) {
  return parts[l].empty() ? parts[l - 1][c / 8] : parts[l][c];
}
// Grid l's parts as a list, made from its parents' where they are kept by parent.
std::vector<std::int32_t> stored_parts(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts,
                                       std::size_t l);
// The same from a partition of the finest grid (--partition FILE's).
std::vector<std::vector<std::int32_t>> inherit_parts(const std::vector<Grid>& grids, const mesh::Partition& finest);

// Every grid's parts as a run makes them without --partition: METIS on grids[metis_grid],
// inherited. Errors: metis_partition's (InputError(name, "P", ...)).
std::vector<std::vector<std::int32_t>> partition_grids(const std::vector<Grid>& grids, int parts, const std::string& name);

// The parts that hold each node (those with a cell touching it), ascending: node n's are
// ranks[offsets[n] .. offsets[n+1]). The first is the node's owner.
struct NodeRanks {
  std::vector<std::uint32_t> offsets;
  std::vector<std::int32_t> ranks;
  std::int32_t owner(Index n) const { return ranks[offsets[n]]; }
  bool holds(Index n, std::int32_t r) const;
  std::size_t count(Index n) const { return offsets[n + 1] - offsets[n]; }
};
NodeRanks node_ranks(const Grid& grid, const std::vector<std::int32_t>& part_of_cell);
// node_ranks of a refined grid whose cells took their parents' parts (fine_parts[c] ==
// coarse_parts[c / 8], inherit_parts above the grid METIS partitions; fine_parts empty where
// they are kept by parent), from the coarser grid's
// node ranks: a copy of coarse node a is held where a is, an edge's midpoint by the parts of
// the coarse cells with that edge. Those are the parts both ends share when they share one;
// only the midpoints whose ends share several are looked up, from the edges of the coarse
// cells with two or more corners on a border (no fine cell is read: a run's finest grid keeps
// its cells by parent). The same result as node_ranks(fine,
// fine_parts), without its pass over every fine cell (replicated on every process: at P = 2
// it cost 4x the one-part pass at P = 1). Returns false, leaving `out` alone, if `fine` is
// not a refinement of `coarse`, a cell's part is not its parent's, or a part is negative.
bool refined_node_ranks(const Grid& fine, const std::vector<std::int32_t>& fine_parts, const Grid& coarse,
                        const std::vector<std::int32_t>& coarse_parts, const NodeRanks& coarse_ranks, NodeRanks& out);
// A NodeRanks from ranks grouped by node (node n's are grouped[start[n] .. start[n+1]), any
// order, duplicates allowed): each node's few sorted and made unique in place, then compacted.
NodeRanks node_ranks_from_groups(std::vector<std::int32_t> grouped, const std::vector<std::size_t>& start);

// Cells per part, [part].
std::vector<std::int64_t> part_sizes(const std::vector<std::int32_t>& part_of_cell, int parts);
// The same for grid l, its parts stored or kept by parent (8 cells a parent).
std::vector<std::int64_t> grid_part_sizes(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts,
                                          std::size_t l, int nparts);

}  // namespace mg
