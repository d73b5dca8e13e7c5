// Partitions of every grid (grid_partition.hpp).
#include "multigrid/grid_partition.hpp"

#include <algorithm>

namespace mg {

std::vector<std::vector<std::int32_t>> inherit_parts(const std::vector<Grid>& grids, const mesh::Partition& finest) {
  std::vector<std::vector<std::int32_t>> parts(grids.size());
  parts.back() = finest.part_of_cell;
  for (std::size_t l = grids.size() - 1; l-- > 0;) {
    const Grid& fine_grid = grids[l + 1];
    const std::vector<std::int32_t>& fine = parts[l + 1];
    std::vector<std::int32_t>& coarse = parts[l];
    const std::size_t nc = grids[l].mesh.cells.size();
    // The children's parts grouped by parent (a counting sort on parent_of).
    std::vector<std::uint32_t> start(nc + 1, 0);
    for (Index p : fine_grid.parent_of) ++start[p + 1];
    for (std::size_t c = 0; c < nc; ++c) start[c + 1] += start[c];
    std::vector<std::int32_t> kids(fine.size());
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t c = 0; c < fine.size(); ++c) kids[fill[fine_grid.parent_of[c]]++] = fine[c];
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

bool NodeRanks::holds(Index n, std::int32_t r) const {
  const auto b = ranks.begin() + offsets[n], e = ranks.begin() + offsets[n + 1];
  return std::binary_search(b, e, r);
}

NodeRanks node_ranks(const mesh::Mesh& mesh, const std::vector<std::int32_t>& part_of_cell) {
  // (node, part) pairs, sorted and unique, then counted into offsets.
  std::vector<std::uint64_t> pairs;
  pairs.reserve(4 * mesh.cells.size());
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
    for (Index n : mesh.cells[c].nodes)
      pairs.push_back((std::uint64_t{n} << 32) | static_cast<std::uint32_t>(part_of_cell[c]));
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  NodeRanks nr;
  nr.offsets.assign(mesh.nodes.size() + 1, 0);
  nr.ranks.reserve(pairs.size());
  for (std::uint64_t p : pairs) {
    ++nr.offsets[(p >> 32) + 1];
    nr.ranks.push_back(static_cast<std::int32_t>(p & 0xFFFFFFFFu));
  }
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n) nr.offsets[n + 1] += nr.offsets[n];
  return nr;
}

std::vector<std::int64_t> part_sizes(const std::vector<std::int32_t>& part_of_cell, int parts) {
  std::vector<std::int64_t> n(static_cast<std::size_t>(parts), 0);
  for (std::int32_t p : part_of_cell) ++n[static_cast<std::size_t>(p)];
  return n;
}

}  // namespace mg
