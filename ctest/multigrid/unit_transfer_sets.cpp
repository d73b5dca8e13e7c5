// transfer_sets (local_level.hpp) groups its (coarse node, rank) pairs by ranks_from_pairs's
// counting sort: the same sets as a plain sort of every pair, on 3 parts of a refined cube
// (coarse nodes fed by several ranks), by the general path and by the one for inherited parts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mesh/mesh_examples.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/sum_exchange.hpp"

namespace {

// The reference: every pair sorted and made unique, then counted by node.
mg::NodeRanks by_sort(std::vector<std::uint64_t> pairs, std::size_t nodes) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  mg::NodeRanks nr;
  nr.offsets.assign(nodes + 1, 0);
  for (std::uint64_t p : pairs) {
    ++nr.offsets[(p >> 32) + 1];
    nr.ranks.push_back(static_cast<std::int32_t>(p & 0xFFFFFFFFu));
  }
  for (std::size_t n = 0; n < nodes; ++n) nr.offsets[n + 1] += nr.offsets[n];
  return nr;
}

}  // namespace

TEST_CASE("transfer sets: the ranks a sort of every pair gives for the same pairs") {
  const std::vector<mg::Grid> grids = mg::build_hierarchy(mesh::kuhn_cube_mesh(3, 1.0), 3, "cube");
  // METIS's parts as a run makes them (METIS partitions grid 1, grid 2 inherits them, grid 0
  // takes its children's), and parts scattered over the coarsest grid that both finer grids
  // inherit.
  std::vector<std::vector<std::vector<std::int32_t>>> partitions{mg::partition_grids(grids, 3, "cube")};
  std::vector<std::vector<std::int32_t>> scattered(grids.size());
  std::uint32_t x = 3;
  for (std::size_t c = 0; c < grids[0].cell_count(); ++c) {
    x = x * 1664525u + 1013904223u;  // a fixed LCG
    scattered[0].push_back(static_cast<std::int32_t>((x >> 16) % 4));
  }
  for (std::size_t l = 1; l < grids.size(); ++l)
    for (std::size_t c = 0; c < grids[l].cell_count(); ++c) scattered[l].push_back(scattered[l - 1][c / 8]);
  partitions.push_back(scattered);
  int inherited_levels = 0;
  for (std::size_t which = 0; which < partitions.size(); ++which) {
    const auto& parts = partitions[which];
    CAPTURE(which);
    for (std::size_t l = 1; l < grids.size(); ++l) {
      CAPTURE(l);
      const mg::NodeRanks fr = mg::node_ranks(grids[l], parts[l]), cr = mg::node_ranks(grids[l - 1], parts[l - 1]);
      std::vector<std::uint64_t> feeders, needers;
      for (mg::Index g = 0; g < grids[l].mesh.nodes.size(); ++g)
        for (std::uint32_t k = 0; k < grids[l].stencil(g).count; ++k) {
          const mg::Index c = grids[l].stencil(g).node[k];
          feeders.push_back(mg::node_rank_pair(c, fr.owner(g)));
          for (std::uint32_t j = fr.offsets[g]; j < fr.offsets[g + 1]; ++j)
            if (!cr.holds(c, fr.ranks[j])) needers.push_back(mg::node_rank_pair(c, fr.ranks[j]));
        }
      const std::size_t cn = grids[l - 1].mesh.nodes.size();
      const mg::NodeRanks fed = by_sort(feeders, cn), needed = by_sort(needers, cn);
      // The general path, and where the parts are inherited (as build_local_levels decides it)
      // the one that looks at the border nodes alone.
      mg::NodeRanks derived;
      const bool inherited = mg::refined_node_ranks(grids[l], parts[l], grids[l - 1], parts[l - 1], cr, derived);
      inherited_levels += inherited;
      if (inherited) {  // what build_local_levels then feeds the shortcut
        CHECK(derived.offsets == fr.offsets);
        CHECK(derived.ranks == fr.ranks);
      }
      for (bool shortcut : {false, inherited}) {
        CAPTURE(shortcut);
        const mg::TransferSets t = mg::transfer_sets(grids[l], fr, cr, shortcut);
        CHECK(t.fed_by.offsets == fed.offsets);
        CHECK(t.fed_by.ranks == fed.ranks);
        CHECK(t.needed_by.offsets == needed.offsets);
        CHECK(t.needed_by.ranks == needed.ranks);
      }
      const mg::NodeRanks fed_by_pairs = mg::ranks_from_pairs(feeders, cn);
      CHECK(fed_by_pairs.offsets == fed.offsets);
      CHECK(fed_by_pairs.ranks == fed.ranks);
      // Some coarse node is fed by 2 ranks (on nested grids none is needed by a rank that does
      // not hold it: a fine cell's parent is in its part).
      bool shared = false;
      for (std::size_t c = 0; c < cn; ++c) shared = shared || fed.count(static_cast<mg::Index>(c)) > 1;
      CHECK(shared);
    }
  }
  CHECK(inherited_levels == 3);  // METIS's grid 2, the scattered parts' grids 1 and 2
}
