// Where each grid's cells and nodes live: METIS partitions the finest grid
// (mesh::metis_partition) and each coarser cell goes to the part most of its children are in (ties
// to the lowest part), as Hill, Crumpton & Burgess place their coarse grids: its eight
// refined cells, or in a sequence of independent meshes the cells whose centroids it holds. The
// imbalance this causes on the coarse grids is what part_sizes reports.
#pragma once
#include <cstdint>
#include <vector>

#include "multigrid/hierarchy.hpp"
#include "mesh/partition.hpp"

namespace mg {

// parts[l][c]: the part of cell c of grids[l]; parts.back() is `finest`.
std::vector<std::vector<std::int32_t>> inherit_parts(const std::vector<Grid>& grids, const mesh::Partition& finest);

// The parts that hold each node (those with a cell touching it), ascending: node n's are
// ranks[offsets[n] .. offsets[n+1]). The first is the node's owner.
struct NodeRanks {
  std::vector<std::uint32_t> offsets;
  std::vector<std::int32_t> ranks;
  std::int32_t owner(Index n) const { return ranks[offsets[n]]; }
  bool holds(Index n, std::int32_t r) const;
  std::size_t count(Index n) const { return offsets[n + 1] - offsets[n]; }
};
NodeRanks node_ranks(const mesh::Mesh& mesh, const std::vector<std::int32_t>& part_of_cell);

// Cells per part, [part].
std::vector<std::int64_t> part_sizes(const std::vector<std::int32_t>& part_of_cell, int parts);

}  // namespace mg
