// Partitions of every grid (grid_partition.hpp).
#include "multigrid/grid_partition.hpp"

#include <algorithm>
#include <stdexcept>

#include "instrument/huge_pages.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/refine.hpp"

namespace mg {

std::size_t metis_grid(const std::vector<Grid>& grids, int parts) {
  const std::size_t finest = grids.size() - 1;
  std::size_t first_refined = finest;  // grids above it all refine the one below
  while (first_refined > 0 && grids[first_refined].refined) --first_refined;
  const std::size_t enough = kMetisCellsPerPart * static_cast<std::size_t>(std::max(parts, 1));
  for (std::size_t l = first_refined; l < finest; ++l)
    if (grids[l].cell_count() >= enough) return l;
  return finest;
}

mesh::Partition metis_partition_grid(const Grid& grid, int parts, const std::string& name) {
  if (grid.cells_by_parent() || grid.nodes_derived)  // no cells, no points to read (FinestCells::by_parent)
    throw std::logic_error("metis_partition_grid: a grid whose cells are kept by parent (store_finest_cells first)");
  if (grid.corners.empty()) return mesh::metis_partition(grid.mesh, parts, name);  // a mesh's own cells and faces
  if (parts == 1) return {1, std::vector<std::int32_t>(grid.cell_count(), 0)};
  // A faceless grid's cells made a mesh, whose faces give METIS its dual graph. Material 0: a
  // partition reads only which cells meet.
  std::vector<mesh::CellNodes> cells(grid.cell_count());
  for (std::size_t c = 0; c < cells.size(); ++c) cells[c] = {grid.cell(c), 0};
  return mesh::metis_partition(mesh::mesh_from_cells(grid.mesh.nodes, cells, name), parts, name);
}

std::vector<std::vector<std::int32_t>> inherit_parts(const std::vector<Grid>& grids, const mesh::Partition& finest) {
  return inherit_parts(grids, grids.size() - 1, finest);
}

std::vector<std::vector<std::int32_t>> partition_grids(const std::vector<Grid>& grids, int parts, const std::string& name) {
  const std::size_t at = metis_grid(grids, parts);
  return inherit_parts(grids, at, metis_partition_grid(grids[at], parts, name));
}

std::vector<std::vector<std::int32_t>> inherit_parts(const std::vector<Grid>& grids, std::size_t at,
                                                     const mesh::Partition& partition, FinestParts finest) {
  std::vector<std::vector<std::int32_t>> parts(grids.size());
  parts[at] = partition.part_of_cell;
  // The finest grid's parts left to its parents' (part_of) where it refines the grid below.
  const std::size_t top = grids.size() - 1;
  const bool finest_by_parent = finest == FinestParts::by_parent && top > at && grids[top].refined;
  const std::size_t stored_end = finest_by_parent ? top : grids.size();
  // One part (one process): every grid's cells in it, what the passes below would find.
  const std::vector<std::int32_t>& given = parts[at];
  if (!given.empty() && std::all_of(given.begin(), given.end(), [&](std::int32_t p) { return p == given[0]; })) {
    for (std::size_t l = 0; l < stored_end; ++l)
      if (l != at) instrument::assign_huge(parts[l], grids[l].cell_count(), given[0]);
    return parts;
  }
  for (std::size_t l = at + 1; l < stored_end; ++l) {
    // Each cell takes its parent's part (Grid::parent: on a refined grid children 8c..8c+7 of c).
    const std::vector<std::int32_t>& coarse = parts[l - 1];
    std::vector<std::int32_t>& fine = parts[l];
    instrument::reserve_huge(fine, grids[l].cell_count());
    const std::size_t n = grids[l].cell_count();
    for (Index c = 0; c < n; ++c) fine.push_back(coarse[grids[l].parent(c)]);
  }
  for (std::size_t l = at; l-- > 0;) {
    const Grid& fine_grid = grids[l + 1];
    const std::vector<std::int32_t>& fine = parts[l + 1];
    std::vector<std::int32_t>& coarse = parts[l];
    const std::size_t nc = grids[l].cell_count();
    // The children's parts grouped by parent (a counting sort on Grid::parent).
    std::vector<std::uint32_t> start(nc + 1, 0);
    for (Index c = 0; c < fine.size(); ++c) ++start[fine_grid.parent(c) + 1];
    for (std::size_t c = 0; c < nc; ++c) start[c + 1] += start[c];
    std::vector<std::int32_t> kids(fine.size());
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (Index c = 0; c < fine.size(); ++c) kids[fill[fine_grid.parent(c)]++] = fine[c];
    coarse.resize(nc);
    for (std::size_t c = 0; c < nc; ++c) {
      const auto b = kids.begin() + start[c], e = kids.begin() + start[c + 1];
      if (b == e) {  // no child (only in a sequence of independent meshes)
        coarse[c] = fine[fine_grid.stand_in[c]];
        continue;
      }
      std::sort(b, e);
      std::int32_t best = *b;
      std::ptrdiff_t best_count = 0;
      for (auto i = b; i != e;) {
        auto j = i;
        while (j != e && *j == *i) ++j;
        if (j - i > best_count) {  // strictly more: a tie keeps the lower part
          best = *i;
          best_count = j - i;
        }
        i = j;
      }
      coarse[c] = best;
    }
  }
  return parts;
}

bool parts_by_parent(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts, std::size_t l) {
  return l > 0 && l < grids.size() && grids[l].refined && parts[l].empty() && grids[l].cell_count() > 0;
}

std::vector<std::int32_t> stored_parts(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts,
                                       std::size_t l) {
  if (!parts_by_parent(grids, parts, l)) return parts[l];
  std::vector<std::int32_t> made;
  instrument::reserve_huge(made, grids[l].cell_count());
  for (std::int32_t p : parts[l - 1]) made.insert(made.end(), 8, p);
  return made;
}

bool NodeRanks::holds(Index n, std::int32_t r) const {
  const auto b = ranks.begin() + offsets[n], e = ranks.begin() + offsets[n + 1];
  return std::binary_search(b, e, r);
}

namespace {

// Every cell in part q (one process): each node in a cell has the one holder q, a node in none
// has none. One pass marking the nodes, not the grouping and sorting below.
NodeRanks one_part_node_ranks(const Grid& grid, std::int32_t q) {
  std::vector<std::uint8_t> used(grid.node_count(), 0);
  for (std::size_t c = 0; c < grid.cell_count(); ++c)
    for (Index n : grid.cell(c)) used[n] = 1;
  NodeRanks nr;
  nr.offsets.resize(grid.node_count() + 1);
  std::uint32_t kept = 0;
  for (std::size_t n = 0; n < used.size(); ++n) {
    nr.offsets[n] = kept;
    kept += used[n];
  }
  nr.offsets[used.size()] = kept;
  nr.ranks.assign(kept, q);
  return nr;
}

}  // namespace

NodeRanks node_ranks(const Grid& grid, const std::vector<std::int32_t>& part_of_cell) {
  if (grid.cells_by_parent())  // no cells stored (FinestCells::by_parent)
    throw std::logic_error("node_ranks: a grid whose cells are kept by parent (refined_node_ranks is its, or store_finest_cells)");
  if (part_of_cell.size() != grid.cell_count())  // parts kept by parent (FinestParts::by_parent): stored_parts first
    throw std::logic_error("node_ranks: not a part a cell of the grid (parts kept by parent? stored_parts makes them)");
  if (!part_of_cell.empty() &&
      std::all_of(part_of_cell.begin(), part_of_cell.end(), [&](std::int32_t p) { return p == part_of_cell[0]; }))
    return one_part_node_ranks(grid, part_of_cell[0]);
  // Most nodes lie inside one part: each node's first part, and whether a cell of another
  // touches it, in one pass; only the nodes on the parts' borders then collect their cells'
  // parts (grouped by node, a counting sort), sorted and made unique. Not a list of every
  // cell's four (node, part): a node's count and its few parts, not 16 bytes a cell.
  const std::size_t nodes = grid.node_count();
  enum : std::uint8_t { kInNone, kInOne, kInSeveral };
  std::vector<std::uint8_t> held(nodes, kInNone);
  std::vector<std::int32_t> first(nodes);
  std::vector<std::uint32_t> corners(nodes, 0);  // cells touching the node
  for (std::size_t c = 0; c < grid.cell_count(); ++c) {
    const std::int32_t q = part_of_cell[c];
    for (Index n : grid.cell(c)) {
      ++corners[n];
      if (held[n] == kInNone) held[n] = kInOne, first[n] = q;
      else if (first[n] != q) held[n] = kInSeveral;
    }
  }
  // The border nodes' parts, border node k's (first[n] = k from here on) from start[k].
  std::vector<std::size_t> start(1, 0);
  for (std::size_t n = 0; n < nodes; ++n)
    if (held[n] == kInSeveral) {
      first[n] = static_cast<std::int32_t>(start.size() - 1);
      start.push_back(start.back() + corners[n]);
    }
  std::vector<std::int32_t> border(start.back());
  if (!border.empty()) {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t c = 0; c < grid.cell_count(); ++c)
      for (Index n : grid.cell(c))
        if (held[n] == kInSeveral) border[fill[static_cast<std::size_t>(first[n])]++] = part_of_cell[c];
  }
  NodeRanks nr;
  nr.offsets.resize(nodes + 1);
  nr.ranks.reserve(nodes + border.size());
  for (std::size_t n = 0; n < nodes; ++n) {
    nr.offsets[n] = static_cast<std::uint32_t>(nr.ranks.size());
    if (held[n] == kInOne) {
      nr.ranks.push_back(first[n]);
    } else if (held[n] == kInSeveral) {
      const std::size_t k = static_cast<std::size_t>(first[n]);
      const auto b = border.begin() + static_cast<std::ptrdiff_t>(start[k]);
      const auto e = border.begin() + static_cast<std::ptrdiff_t>(start[k + 1]);
      std::sort(b, e);
      nr.ranks.insert(nr.ranks.end(), b, std::unique(b, e));
    }
  }
  nr.offsets[nodes] = static_cast<std::uint32_t>(nr.ranks.size());
  return nr;
}

bool refined_node_ranks(const Grid& fine, const std::vector<std::int32_t>& fine_parts, const Grid& coarse,
                        const std::vector<std::int32_t>& coarse_parts, const NodeRanks& coarse_ranks, NodeRanks& out) {
  const std::size_t cn = fine.coarse_nodes, nodes = fine.node_count(), cells = fine.cell_count();
  if (!fine.refined || cn != coarse.mesh.nodes.size() || coarse_ranks.offsets.size() != cn + 1 ||
      nodes != cn + fine.midpoint_of.size() || cells != 8 * coarse.cell_count() ||
      (!fine_parts.empty() && fine_parts.size() != cells) || coarse_parts.size() != coarse.cell_count())
    return false;
  if (fine_parts.empty()) {  // kept by parent: each cell's part is its parent's
    for (std::int32_t p : coarse_parts)
      if (p < 0) return false;  // parts >= 0: kSeveral below
  } else {
    for (std::size_t c = 0; c < cells; ++c)
      if (fine_parts[c] != coarse_parts[c / 8] || fine_parts[c] < 0) return false;
  }
  // Per midpoint: the one part its ends share, or kSeveral (looked up below).
  constexpr std::int32_t kSeveral = -1;
  const std::size_t midpoints = nodes - cn;
  std::vector<std::int32_t> shared(midpoints);
  std::size_t several = 0;
  for (std::size_t j = 0; j < midpoints; ++j) {
    const std::array<Index, 2>& e = fine.midpoint_of[j];
    const std::int32_t* a = coarse_ranks.ranks.data() + coarse_ranks.offsets[e[0]];
    const std::int32_t* a_end = coarse_ranks.ranks.data() + coarse_ranks.offsets[e[0] + 1];
    const std::int32_t* b = coarse_ranks.ranks.data() + coarse_ranks.offsets[e[1]];
    const std::int32_t* b_end = coarse_ranks.ranks.data() + coarse_ranks.offsets[e[1] + 1];
    if (a_end - a == 1 || b_end - b == 1) {  // an end inside one part: every cell at the edge is in it
      shared[j] = a_end - a == 1 ? *a : *b;
      continue;
    }
    std::int32_t found = kSeveral, count = 0;
    while (a != a_end && b != b_end) {  // both ascending
      if (*a < *b) ++a;
      else if (*b < *a) ++b;
      else found = *a, ++count, ++a, ++b;
    }
    shared[j] = count == 1 ? found : kSeveral;
    several += count != 1;
  }
  // The parts of the midpoints whose ends share several: the parts of the coarse cells at
  // their edge (the cells whose children hold the midpoint), found from the coarse cells'
  // edges, not their children, which a finest grid does not store (FinestCells::by_parent).
  // Only a coarse cell with two corners on a border has such an edge.
  std::vector<std::uint64_t> pairs;  // (midpoint j << 32) | part
  if (several > 0) {
    const MidpointLookup midpoint(fine);
    for (std::size_t c = 0; c < coarse.cell_count(); ++c) {
      const std::array<Index, 4>& v = coarse.cell(c);
      int border = 0;
      for (Index n : v) border += coarse_ranks.count(n) > 1;
      if (border < 2) continue;
      for (const auto& e : mesh::kTetEdges) {
        const Index a = v[static_cast<std::size_t>(e[0])], b = v[static_cast<std::size_t>(e[1])];
        if (coarse_ranks.count(a) == 1 || coarse_ranks.count(b) == 1) continue;  // shared[] has its part
        const Index n = midpoint.node(a, b);
        if (shared[n - cn] == kSeveral)
          pairs.push_back((std::uint64_t{n - cn} << 32) | static_cast<std::uint32_t>(coarse_parts[c]));
      }
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  }
  NodeRanks nr;
  nr.offsets.resize(nodes + 1);
  nr.ranks.reserve(coarse_ranks.ranks.size() + midpoints + pairs.size());
  nr.ranks.assign(coarse_ranks.ranks.begin(), coarse_ranks.ranks.end());  // the coarse nodes' copies
  std::copy(coarse_ranks.offsets.begin(), coarse_ranks.offsets.end() - 1, nr.offsets.begin());
  std::size_t p = 0;
  for (std::size_t j = 0; j < midpoints; ++j) {
    nr.offsets[cn + j] = static_cast<std::uint32_t>(nr.ranks.size());
    if (shared[j] != kSeveral) {
      nr.ranks.push_back(shared[j]);
      continue;
    }
    for (; p < pairs.size() && (pairs[p] >> 32) == j; ++p)
      nr.ranks.push_back(static_cast<std::int32_t>(pairs[p] & 0xFFFFFFFFu));
  }
  nr.offsets[nodes] = static_cast<std::uint32_t>(nr.ranks.size());
  out = std::move(nr);
  return true;
}

NodeRanks node_ranks_from_groups(std::vector<std::int32_t> grouped, const std::vector<std::size_t>& start) {
  const std::size_t nodes = start.size() - 1;
  NodeRanks nr;
  nr.ranks = std::move(grouped);
  nr.offsets.assign(nodes + 1, 0);
  std::size_t kept = 0;
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto from = nr.ranks.begin() + static_cast<std::ptrdiff_t>(start[n]);
    const auto to = nr.ranks.begin() + static_cast<std::ptrdiff_t>(start[n + 1]);
    std::sort(from, to);
    const auto end = std::unique(from, to);
    nr.offsets[n] = static_cast<std::uint32_t>(kept);
    kept = static_cast<std::size_t>(std::copy(from, end, nr.ranks.begin() + static_cast<std::ptrdiff_t>(kept)) -
                                    nr.ranks.begin());
  }
  nr.offsets[nodes] = static_cast<std::uint32_t>(kept);
  nr.ranks.resize(kept);
  nr.ranks.shrink_to_fit();
  return nr;
}

std::vector<std::int64_t> part_sizes(const std::vector<std::int32_t>& part_of_cell, int parts) {
  std::vector<std::int64_t> n(static_cast<std::size_t>(parts), 0);
  for (std::int32_t p : part_of_cell) ++n[static_cast<std::size_t>(p)];
  return n;
}

std::vector<std::int64_t> grid_part_sizes(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts,
                                          std::size_t l, int nparts) {
  if (!parts_by_parent(grids, parts, l)) return part_sizes(parts[l], nparts);
  std::vector<std::int64_t> n = part_sizes(parts[l - 1], nparts);
  for (std::int64_t& k : n) k *= 8;
  return n;
}

}  // namespace mg
