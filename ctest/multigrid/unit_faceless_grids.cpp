// build_hierarchy's refined grids with GridFaces::omitted (mesh::refine_uniform_corners):
// their cells (corners alone, Grid::corners), nodes and Dirichlet nodes are those of the faced
// refinement (boundary nodes found from the refined boundary triangles), and METIS on a refined
// grid (metis_partition_grid, faces found first) gives the partition of the faced grid.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "mesh/mesh_examples.hpp"
#include "mesh/partition.hpp"
#include "mesh/refine.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"

namespace {

std::vector<std::uint8_t> boundary_nodes_of_faces(const mesh::Mesh& m) {
  std::vector<std::uint8_t> on(m.nodes.size(), 0);
  for (const mesh::Face& f : m.faces)
    if (f.on_boundary())
      for (mesh::Index n : f.nodes) on[n] = 1;
  return on;
}

// The unit cube of n^3 cubes with its interior nodes moved (no refinement of it is a grid of cubes).
mesh::Mesh moved_cube(int n) {
  mesh::Mesh m = mesh::kuhn_cube_mesh(n, 1.0);
  for (std::size_t k = 0; k < m.nodes.size(); ++k) {
    mesh::Vec3& v = m.nodes[k];
    const auto inside = [](double c) { return c > 1e-9 && c < 1 - 1e-9; };
    if (!inside(v.x) || !inside(v.y) || !inside(v.z)) continue;
    const double t = static_cast<double>(k), h = 0.2 / n;
    v = {v.x + h * std::sin(1.7 * t), v.y + h * std::sin(2.3 * t + 1), v.z + h * std::sin(3.1 * t + 2)};
  }
  return m;
}

}  // namespace

TEST_CASE("refined grids without faces: the faced refinement's cells, nodes and Dirichlet nodes") {
  for (int n : {2, 3}) {
    CAPTURE(n);
    const mesh::Mesh coarse = moved_cube(n);
    const std::vector<mg::Grid> grids = mg::build_hierarchy(coarse, 4, "cube", mg::GridFaces::omitted);
    mesh::Mesh faced = coarse;
    for (std::size_t l = 1; l < grids.size(); ++l) {
      CAPTURE(l);
      faced = mesh::refine_uniform(faced, "cube", mesh::RefinedGeometry::omitted);
      const mesh::Mesh& m = grids[l].mesh;
      CHECK(m.faces.empty());
      CHECK(m.cells.empty());  // the corners alone, 16 B a cell
      REQUIRE(grids[l].cell_count() == faced.cells.size());
      REQUIRE(m.nodes.size() == faced.nodes.size());
      CHECK(grids[l].corners == mesh::cell_corners(faced));
      bool same = true;
      for (std::size_t c = 0; c < faced.cells.size(); ++c) same = same && grids[l].cell(c) == faced.cells[c].nodes;
      CHECK(same);
      CHECK(std::memcmp(m.nodes.data(), faced.nodes.data(), m.nodes.size() * sizeof(mesh::Vec3)) == 0);
      const std::vector<std::uint8_t> expected = boundary_nodes_of_faces(faced);
      CHECK(grids[l].dirichlet == expected);
      // Not all boundary, not none: a check that can fail.
      CHECK(std::count(expected.begin(), expected.end(), 1) > 0);
      CHECK(std::count(expected.begin(), expected.end(), 0) > 0);
    }
  }
}

TEST_CASE("METIS on a refined grid without faces gives the faced grid's partition") {
  // 48 coarse cells: 4 parts of 128 need a refined grid (metis_grid picks grid 2, 3072 cells).
  const mesh::Mesh coarse = moved_cube(2);
  const std::vector<mg::Grid> grids = mg::build_hierarchy(coarse, 3, "cube", mg::GridFaces::omitted);
  const std::size_t at = mg::metis_grid(grids, 4);
  REQUIRE(at > 0);
  REQUIRE(grids[at].mesh.faces.empty());
  mesh::Mesh faced = coarse;
  for (std::size_t l = 1; l <= at; ++l) faced = mesh::refine_uniform(faced, "cube", mesh::RefinedGeometry::omitted);
  const mesh::Partition expected = mesh::metis_partition(faced, 4, "cube");
  CHECK(mg::metis_partition_grid(grids[at], 4, "cube").part_of_cell == expected.part_of_cell);
  CHECK(mg::partition_grids(grids, 4, "cube")[at] == expected.part_of_cell);
}
