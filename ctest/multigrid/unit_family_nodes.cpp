// A family's nodes (local_level.cpp): refinement's own children take a short path (compared
// node for node with mesh::refined_children); children listed another way take the search.
// Both give the same families, in global nodes, on a moved cube whose octahedra are cut
// along all three diagonals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
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
  for (std::size_t q = 0; q < levels.back().family_count(); ++q) {
    const std::array<std::uint32_t, 10> slots = levels.back().family(q);
    std::array<mg::Index, 10> nodes;
    for (std::size_t k = 0; k < 10; ++k) nodes[k] = levels.back().node_global[slots[k]];
    f.push_back(nodes);
  }
  return f;
}

// The 3^3 Kuhn cube with its inner nodes moved: its refinement's octahedra are cut along all
// three diagonals.
mesh::Mesh moved_cube() {
  mesh::Mesh coarse = mesh::kuhn_cube_mesh(3, 1.0);
  for (std::size_t k = 0; k < coarse.nodes.size(); ++k) {
    mesh::Vec3& v = coarse.nodes[k];
    const auto inside = [](double c) { return c > 1e-9 && c < 1 - 1e-9; };
    if (!inside(v.x) || !inside(v.y) || !inside(v.z)) continue;
    const double t = static_cast<double>(k), h = 0.25 / 3;
    v = {v.x + h * std::sin(1.7 * t), v.y + h * std::sin(2.3 * t + 1), v.z + h * std::sin(3.1 * t + 2)};
  }
  return coarse;
}

}  // namespace

TEST_CASE("families: refinement's own children and the same children listed otherwise agree") {
  std::vector<mg::Grid> g = mg::build_hierarchy(moved_cube(), 3, "cube");
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

namespace {

// The process's cells as for_each_cell gives them, in global nodes, corner order kept.
std::vector<std::array<mg::Index, 4>> cells_in_global_nodes(const mg::LocalLevel& L) {
  std::vector<std::array<mg::Index, 4>> cells;
  mg::for_each_cell(L, [&](const std::array<std::uint32_t, 4>& v) {
    cells.push_back({L.node_global[v[0]], L.node_global[v[1]], L.node_global[v[2]], L.node_global[v[3]]});
  });
  return cells;
}

}  // namespace

TEST_CASE("a family's cells from its nodes and shape: every cell of the process, corner for corner") {
  std::vector<mg::Grid> g = mg::build_hierarchy(moved_cube(), 3, "cube");
  const auto check_parts = [&](int parts) {
    const auto part = mg::partition_grids(g, parts, "cube");
    std::size_t families = 0;
    for (int me = 0; me < parts; ++me) {
      CAPTURE(parts, me);
      const std::vector<mg::LocalLevel> levels = mg::build_local_levels(g, part, me, parts);
      const mg::LocalLevel& L = levels.back();
      families += L.family_count();
      REQUIRE(L.family_shape.size() == L.family_count());
      CHECK(L.shapes.size() <= 3);  // one a diagonal
      std::vector<std::array<mg::Index, 4>> mine;
      for (std::size_t c = 0; c < g.back().mesh.cells.size(); ++c)
        if (part.back()[c] == me) mine.push_back(g.back().mesh.cells[c].nodes);
      const std::vector<std::array<mg::Index, 4>> listed = cells_in_global_nodes(L);
      REQUIRE(listed.size() == L.cell_count());
      // The order the sums add in: family f's child j is the grid's cell 8 q + j of its parent
      // q, corners in the grid's order (a cell's tuple is found as the grid lists it).
      std::map<std::array<mg::Index, 4>, std::size_t> id;
      for (std::size_t c = 0; c < g.back().mesh.cells.size(); ++c) id[g.back().mesh.cells[c].nodes] = c;
      std::size_t out_of_place = 0;
      for (std::size_t f = 0; f < L.family_count(); ++f) {
        const auto first = id.find(listed[8 * f]);
        REQUIRE(first != id.end());
        out_of_place += first->second % 8 != 0;
        for (std::size_t j = 1; j < 8; ++j) {
          const auto at = id.find(listed[8 * f + j]);
          out_of_place += at == id.end() || at->second != first->second + j;
        }
      }
      CHECK(out_of_place == 0);
      std::vector<std::array<mg::Index, 4>> sorted = listed;
      std::sort(mine.begin(), mine.end());
      std::sort(sorted.begin(), sorted.end());
      CHECK(sorted == mine);
      // Dissolved, the same cells in the same order, all loose.
      mg::LocalLevel loose = L;
      mg::dissolve_families(loose, L.family_count() / 2);
      CHECK(loose.family_count() == L.family_count() / 2);
      CHECK(cells_in_global_nodes(loose) == cells_in_global_nodes(L));
      // The families kept, batched as batch_items batches them (dead lanes included).
      std::vector<std::array<std::uint32_t, 10>> kept;
      for (std::size_t f = 0; f < loose.family_count(); ++f) kept.push_back(loose.family(f));
      CHECK(loose.family_batches.batches == mg::batch_items(kept.data(), kept.size()).batches);
    }
    return families;
  };
  CHECK(check_parts(1) == g[1].mesh.cells.size());
  CHECK(check_parts(3) > 0);
}

TEST_CASE("families of a finest grid kept by parent: those of the same grid with its cells stored") {
  // family_nodes takes a kept-by-parent grid's families from the parents' midpoints and
  // diagonals without looking at the children; the stored grid's go through the check.
  const auto level = [](mg::FinestCells finest) {
    const std::vector<mg::Grid> g = mg::build_hierarchy(moved_cube(), 3, "cube", mg::GridFaces::omitted, finest);
    REQUIRE(g.back().cells_by_parent() == (finest != mg::FinestCells::stored));
    const mesh::Partition one{1, std::vector<std::int32_t>(g.back().cell_count(), 0)};
    return mg::build_local_levels(g, mg::inherit_parts(g, one), 0, 1).back();
  };
  const mg::LocalLevel stored = level(mg::FinestCells::stored), by_parent = level(mg::FinestCells::by_parent);
  REQUIRE(stored.family_count() == 8 * 27 * 6);  // every cell of the 3^3 cube refined once a parent of a family
  REQUIRE(by_parent.family_count() == stored.family_count());
  CHECK(by_parent.loose_cells.empty());
  CHECK(by_parent.node_global == stored.node_global);
  // The points the numbering wrote: derived where kept by parent, the stored ones' bits.
  REQUIRE(by_parent.xyz.size() == stored.xyz.size());
  CHECK(std::memcmp(by_parent.xyz.data(), stored.xyz.data(), stored.xyz.size() * sizeof(stored.xyz[0])) == 0);
  for (std::size_t f = 0; f < stored.family_count(); ++f) {
    INFO("family " << f);
    CHECK(by_parent.family(f) == stored.family(f));
    CHECK(by_parent.shapes[by_parent.family_shape[f]] == stored.shapes[stored.family_shape[f]]);
  }
  CHECK(cells_in_global_nodes(by_parent) == cells_in_global_nodes(stored));
}

TEST_CASE("families of a finest grid kept by parent at 2 and 3 parts: every process's, the stored grid's walk") {
  // The numbering gives a kept-by-parent family's nodes their slots from a layout per diagonal
  // (no children made); the stored grid's families go through the walk over their children.
  // METIS on the middle grid: each process's level of the finest grid, kept by parent (with
  // its parts stored and kept by parent) against the same grid stored, on the moved cube whose
  // octahedra are cut along all three diagonals.
  const std::vector<mg::Grid> stored = mg::build_hierarchy(moved_cube(), 3, "cube", mg::GridFaces::omitted);
  const std::vector<mg::Grid> kept =
      mg::build_hierarchy(moved_cube(), 3, "cube", mg::GridFaces::omitted, mg::FinestCells::by_parent);
  REQUIRE(kept.back().cells_by_parent());
  std::set<int> diagonals(kept.back().splits.diagonals().begin(), kept.back().splits.diagonals().end());
  REQUIRE(diagonals.size() == 3);
  for (int p : {2, 3}) {
    const mesh::Partition part = mg::metis_partition_grid(stored[1], p, "cube");
    const auto parts = mg::inherit_parts(stored, 1, part);
    const auto parts_by_parent = mg::inherit_parts(kept, 1, part, mg::FinestParts::by_parent);
    REQUIRE(parts_by_parent.back().empty());
    for (int me = 0; me < p; ++me) {
      INFO(p << " parts, process " << me);
      const mg::LocalLevel want = mg::build_local_levels(stored, parts, me, p).back();
      for (const auto* kept_parts : {&parts, &parts_by_parent}) {
        const mg::LocalLevel got = mg::build_local_levels(kept, *kept_parts, me, p).back();
        CHECK(got.node_global == want.node_global);
        CHECK(got.n_local == want.n_local);
        REQUIRE(got.family_count() == want.family_count());
        CHECK(got.family_count() > 0);
        CHECK(got.shapes == want.shapes);
        CHECK(got.family_shape == want.family_shape);
        for (std::size_t f = 0; f < want.family_count(); ++f) REQUIRE(got.family(f) == want.family(f));
        CHECK(got.loose_cells == want.loose_cells);
        CHECK(cells_in_global_nodes(got) == cells_in_global_nodes(want));
      }
    }
  }
}
