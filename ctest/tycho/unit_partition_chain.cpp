// The chain of parts a sweep crosses (eq. 8's pipeline length), on a hand-made row of cubes
// cut into slabs and on parts of cubes of 1296 cells, Kuhn's and a jittered one (the lagging
// of cycles of cells is not exercised: Kuhn's cube has none).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/partition.hpp"
#include "tycho/sweep_chain.hpp"

#include "../mesh/jittered_cube.hpp"

using namespace tycho;
using namespace mesh;

namespace {

// n unit cubes in a row along x, each cut into Kuhn's 6 tetrahedra (cells 6i .. 6i+5 in
// cube i). Neighbouring cubes' shared square has the same diagonal from both sides, so the
// faces between cubes lie on x = i with normals (+-1, 0, 0).
Mesh row_of_cubes(int n) {
  std::vector<Vec3> nodes;
  for (int i = 0; i <= n; ++i)
    for (int b = 0; b < 4; ++b) nodes.push_back({double(i), double(b & 1), double(b >> 1)});
  const auto node = [](int i, int bits) {  // bits: x = 1, y = 2, z = 4
    return static_cast<Index>(4 * (i + (bits & 1)) + ((bits >> 1) & 1) + 2 * ((bits >> 2) & 1));
  };
  const int orders[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
  std::vector<CellNodes> cells;
  for (int i = 0; i < n; ++i)
    for (const auto& o : orders) cells.push_back({{node(i, 0), node(i, o[0]), node(i, o[0] + o[1]), node(i, 7)}, 1});
  Mesh m = mesh_from_cells(std::move(nodes), cells, "row");
  check_mesh(m, "row");
  compute_geometry(m);
  return m;
}

Partition slabs(std::size_t cells, int cubes, int parts) {
  Partition p{parts, {}};
  for (std::size_t c = 0; c < cells; ++c) p.part_of_cell.push_back(static_cast<std::int32_t>(c / 6 * parts / cubes));
  return p;
}

}  // namespace

TEST_CASE("slabs stacked along x: the chain is P along x, 1 across, 2 along the diagonals", "[partition][chain]") {
  const Mesh m = row_of_cubes(8);
  REQUIRE(m.faces.size() == 8 * 18 - 7 * 2);  // 7 squares between cubes, 2 triangles each shared
  for (int parts : {1, 2, 4, 8}) {
    INFO("P = " << parts);
    const Partition p = slabs(m.cells.size(), 8, parts);
    CHECK(sweep_chain(m, p, {1, 0, 0}).parts_crossed == parts);
    CHECK(sweep_chain(m, p, {-1, 0, 0}).parts_crossed == parts);
    CHECK(sweep_chain(m, p, {0.9, 0.3, 0.2}).parts_crossed == parts);
    CHECK(sweep_chain(m, p, {-0.9, -0.3, 0.2}).parts_crossed == parts);
    CHECK(sweep_chain(m, p, {0, 1, 0}).parts_crossed == 1);
    CHECK(sweep_chain(m, p, {0, 0, -1}).parts_crossed == 1);
    // Kuhn's tet (a, b, c) is the region x_a >= x_b >= x_c of its cube, and its faces inside
    // the cube lie on the planes x_a = x_b: Omega carries a tet across x_a = x_b into the
    // tet with b before a only when Omega_b > Omega_a. A path enters a cube at x = 0 in a
    // tet with x last and leaves at x = 1 in one with x first, so it runs along the whole
    // row (chain P) only if Omega_x is strictly the largest component (or, going back,
    // the smallest); otherwise it crosses one square between cubes: chain min(P, 2).
    // Of the diagonals, (-1, 1, 1) and (1, -1, -1) run along the row.
    for (const SweepChain& c : octant_sweep_chains(m, p)) {
      const Vec3& d = c.direction;
      const bool along_row = (d.x > d.y && d.x > d.z) || (d.x < d.y && d.x < d.z);
      INFO("direction " << d.x << " " << d.y << " " << d.z);
      CHECK(c.parts_crossed == (along_row ? parts : std::min(parts, 2)));
      CHECK(c.lagged_faces == 0);
    }
  }
}

Partition by_cube(std::size_t cells, std::vector<std::int32_t> part_of_cube) {
  Partition p{*std::max_element(part_of_cube.begin(), part_of_cube.end()) + 1, {}};
  for (std::size_t c = 0; c < cells; ++c) p.part_of_cell.push_back(part_of_cube[c / 6]);
  return p;
}

TEST_CASE("the graph of parts: slabs give P along x and the diagonals, 1 across; cycles are broken", "[partition][chain]") {
  const Mesh m = row_of_cubes(8);
  for (int parts : {1, 2, 4, 8}) {
    INFO("P = " << parts);
    const Partition p = slabs(m.cells.size(), 8, parts);
    CHECK(part_graph_chain(m, p, {1, 0, 0}).parts_crossed == parts);
    CHECK(part_graph_chain(m, p, {-0.9, 0.3, 0.2}).parts_crossed == parts);
    CHECK(part_graph_chain(m, p, {0, 1, 0}).parts_crossed == 1);  // no flow across x = i
    // Every diagonal has Omega_x != 0: the net flow crosses each square between slabs.
    for (const PartGraphChain& c : octant_part_graph_chains(m, p)) {
      CHECK(c.parts_crossed == parts);
      CHECK(c.dropped_edges == 0);
    }
  }
  // 0,1,0,1,...: the squares x = 1, 3, 5, 7 carry 0 -> 1, x = 2, 4, 6 carry 1 -> 0; the net
  // flow orients one edge 0 -> 1, so 2 parts, where the cells' chain counts 8.
  const Partition alternating = by_cube(m.cells.size(), {0, 1, 0, 1, 0, 1, 0, 1});
  CHECK(part_graph_chain(m, alternating, {1, 0, 0}).parts_crossed == 2);
  CHECK(sweep_chain(m, alternating, {1, 0, 0}).parts_crossed == 8);
  // 0,1,2,0,...: 0 -> 1 (x = 1), 1 -> 2 (x = 2), 2 -> 0 (x = 3, and x = 6) against
  // 0 -> 1 (x = 4) and 1 -> 2 (x = 5): pair (0, 2) nets 2 -> 0, a cycle 0 -> 1 -> 2 -> 0. The
  // search from part 0 drops 2 -> 0 and keeps the path 0, 1, 2.
  const Partition cycle = by_cube(m.cells.size(), {0, 1, 2, 0, 1, 2, 0, 1});
  const PartGraphChain c = part_graph_chain(m, cycle, {1, 0, 0});
  CHECK(c.dropped_edges == 1);
  CHECK(c.parts_crossed == 3);
  CHECK(sweep_chain(m, cycle, {1, 0, 0}).parts_crossed == 8);
}

TEST_CASE("the octant diagonals are the 8 unit vectors (+-1, +-1, +-1)/sqrt(3)", "[partition][chain]") {
  const auto d = octant_diagonals();
  const double s = 1 / std::sqrt(3.0);
  CHECK(d[0] == Vec3{s, s, s});
  CHECK(d[1] == Vec3{-s, s, s});
  CHECK(d[6] == Vec3{s, -s, -s});
  CHECK(d[7] == Vec3{-s, -s, -s});
}

TEST_CASE("on cubes of side 100, slabs by centroid along x give chain P along x; METIS parts at most P",
          "[partition][chain]") {
  // Kuhn's cube (a Delaunay mesh: Kuhn's triangulation of a grid is one, and a Delaunay mesh
  // has no cycle of cells in any direction, Edelsbrunner 1990) and the jittered cube (an
  // unstructured one, with no such guarantee), both 1296 cells.
  const std::pair<Mesh, bool> meshes[] = {{kuhn_cube_mesh(6, 100.0), true}, {meshtest::jittered_cube(6, 100.0), false}};
  for (const auto& [m, delaunay] : meshes) {
    INFO((delaunay ? "Kuhn's cube" : "the jittered cube"));
    for (int parts : {2, 4}) {
      INFO("P = " << parts);
      Partition p{parts, {}};
      for (const Cell& cell : m.cells) {
        double x = 0;
        for (Index n : cell.nodes) x += m.nodes[n].x / 4;
        p.part_of_cell.push_back(std::min(parts - 1, static_cast<int>(x / (100.0 / parts))));
      }
      CHECK(sweep_chain(m, p, {1, 0, 0}).parts_crossed >= parts);
      const Partition metis = metis_partition(m, parts, "cube");
      for (const SweepChain& c : octant_sweep_chains(m, metis)) {
        CHECK(c.parts_crossed >= 2);
        if (delaunay) CHECK(c.lagged_faces == 0);
      }
      for (const PartGraphChain& c : octant_part_graph_chains(m, metis)) {
        CHECK(c.parts_crossed >= 2);
        CHECK(c.parts_crossed <= parts);
      }
    }
  }
}
