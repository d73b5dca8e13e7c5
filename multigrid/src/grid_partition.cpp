// Partitions of every grid (grid_partition.hpp).
#include "multigrid/grid_partition.hpp"

#include <algorithm>

namespace mg {

std::vector<std::vector<std::int32_t>> inherit_parts(const std::vector<Grid>& grids, const tycho::Partition& finest) {
  std::vector<std::vector<std::int32_t>> parts(grids.size());
  parts.back() = finest.part_of_cell;
  for (std::size_t l = grids.size() - 1; l-- > 0;) {
    const std::vector<std::int32_t>& fine = parts[l + 1];
    std::vector<std::int32_t>& coarse = parts[l];
    coarse.resize(grids[l].mesh.cells.size());
    for (std::size_t c = 0; c < coarse.size(); ++c) {
      std::array<std::int32_t, 8> kids;
      std::copy_n(fine.begin() + static_cast<std::ptrdiff_t>(8 * c), 8, kids.begin());
      std::sort(kids.begin(), kids.end());
      std::int32_t best = kids[0];
      int best_count = 0;
      for (std::size_t i = 0; i < 8;) {
        std::size_t j = i;
        while (j < 8 && kids[j] == kids[i]) ++j;
        if (static_cast<int>(j - i) > best_count) {  // strictly more: a tie keeps the lower part
          best = kids[i];
          best_count = static_cast<int>(j - i);
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

NodeRanks node_ranks(const tycho::Mesh& mesh, const std::vector<std::int32_t>& part_of_cell) {
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
