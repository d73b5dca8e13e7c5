// A family's nodes (local_level.cpp): refinement's own children take a short path (compared
// node for node with mesh::refined_children); children listed another way take the search.
// Both give the same families, in global nodes, on a moved cube whose octahedra are cut
// along all three diagonals.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <set>
#include <vector>

#include "mesh/mesh_examples.hpp"
#include "mesh/refine.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"

namespace {

std::vector<std::array<mg::Index, 10>> global_families(const std::vector<mg::Grid>& g) {
  const mesh::Partition one{1, std::vector<std::int32_t>(g.back().mesh.cells.size(), 0)};
  const std::vector<mg::LocalLevel> levels = mg::build_local_levels(g, mg::inherit_parts(g, one), 0, 1);
  std::vector<std::array<mg::Index, 10>> f;
  for (const auto& slots : levels.back().families) {
    std::array<mg::Index, 10> nodes;
    for (std::size_t k = 0; k < 10; ++k) nodes[k] = levels.back().node_global[slots[k]];
    f.push_back(nodes);
  }
  return f;
}

}  // namespace

TEST_CASE("families: refinement's own children and the same children listed otherwise agree") {
  mesh::Mesh coarse = mesh::kuhn_cube_mesh(3, 1.0);
  for (std::size_t k = 0; k < coarse.nodes.size(); ++k) {
    mesh::Vec3& v = coarse.nodes[k];
    const auto inside = [](double c) { return c > 1e-9 && c < 1 - 1e-9; };
    if (!inside(v.x) || !inside(v.y) || !inside(v.z)) continue;
    const double t = static_cast<double>(k), h = 0.25 / 3;
    v = {v.x + h * std::sin(1.7 * t), v.y + h * std::sin(2.3 * t + 1), v.z + h * std::sin(3.1 * t + 2)};
  }
  std::vector<mg::Grid> g = mg::build_hierarchy(coarse, 3, "cube");
  // Every diagonal occurs: child 4 starts with the diagonal's first end, m01, m02 or m03.
  std::set<mg::Index> firsts;
  for (std::size_t p = 0; p < g[1].mesh.cells.size(); ++p) {
    const auto& kid0 = g[2].mesh.cells[8 * p].nodes;
    const mg::Index d0 = g[2].mesh.cells[8 * p + 4].nodes[0];
    firsts.insert(d0 == kid0[1] ? 0 : d0 == kid0[2] ? 1 : 2);
  }
  CHECK(firsts.size() == 3);
  const auto fast = global_families(g);
  CHECK(fast.size() == g[1].mesh.cells.size());  // every parent a family
  // The children's corners rotated (the same cells): no child is refined_children's now.
  for (mesh::Cell& c : g[2].mesh.cells) c.nodes = {c.nodes[1], c.nodes[2], c.nodes[3], c.nodes[0]};
  const auto searched = global_families(g);
  CHECK(searched == fast);
}
