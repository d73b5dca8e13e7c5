// Independent (non-nested) grid sequences (hierarchy.hpp's build_sequence, located by
// mesh/point_location.hpp):
//  - every fine node's stencil reproduces linear functions exactly (what interpolation
//    between P1 spaces must do), with positive weights summing to 1, on jittered cubes of
//    162, 1296 and 10368 cells, none nested in another;
//  - given a refinement as if it were an independent mesh, the sequence's transfers,
//    parents and inherited parts are the nested hierarchy's;
//  - a fine grid outside the coarse one, or no finer than it, is refused with its place.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "instrument/error.hpp"
#include "../mesh/jittered_cube.hpp"
#include "mesh/mesh_examples.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "mesh/point_location.hpp"
#include "mesh/partition.hpp"
#include "mesh/refine.hpp"

namespace {

double linear(const mesh::Vec3& p) { return 1.0 + 2.0 * p.x - 3.0 * p.y + 0.5 * p.z; }

std::map<mg::Index, double> as_map(const mg::CoarseStencil& s) {
  std::map<mg::Index, double> m;
  for (std::uint32_t k = 0; k < s.count; ++k) m[s.node[k]] += s.weight[k];
  return m;
}

}  // namespace

TEST_CASE("jittered cubes 162 -> 1296 -> 10368: every stencil reproduces linear functions") {
  // [0,100]^3 as 3^3, 6^3 and 12^3 Kuhn cubes, the interior nodes of each jittered its own
  // way (../mesh/jittered_cube.hpp): no grid nests in the coarser one.
  std::vector<std::string> names{"jittered cube 3", "jittered cube 6", "jittered cube 12"};
  std::vector<mesh::Mesh> meshes;
  for (int n : {3, 6, 12}) meshes.push_back(meshtest::jittered_cube(n, 100.0));
  const std::vector<mg::Grid> g = mg::build_sequence(meshes, names);
  REQUIRE(g.size() == 3);
  CHECK(g[0].from_coarse.empty());
  for (std::size_t l = 1; l < 3; ++l) {
    const mesh::Mesh &coarse = g[l - 1].mesh, &fine = g[l].mesh;
    CHECK_FALSE(g[l].refined);
    REQUIRE(g[l].from_coarse.size() == fine.nodes.size());
    std::size_t bad = 0;
    for (std::size_t n = 0; n < fine.nodes.size(); ++n) {
      const mg::CoarseStencil& s = g[l].from_coarse[n];
      double value = 0, sum = 0, lowest = 1;
      for (std::uint32_t k = 0; k < s.count; ++k) {
        value += s.weight[k] * linear(coarse.nodes[s.node[k]]);
        sum += s.weight[k];
        lowest = std::min(lowest, s.weight[k]);
      }
      // The cubes are [0, 100]^3: linear() reaches a few hundred.
      if (s.count < 1 || s.count > 4 || std::fabs(sum - 1) > 1e-12 || lowest <= 0 ||
          std::fabs(value - linear(fine.nodes[n])) > 1e-9)
        ++bad;
    }
    INFO("grid " << l);
    CHECK(bad == 0);
    // Each coarse cell with no child (no fine centroid in it) has a stand-in, and only then.
    REQUIRE(g[l].parent_of.size() == fine.cells.size());
    std::vector<int> children(coarse.cells.size(), 0);
    for (mg::Index p : g[l].parent_of) ++children[p];
    const long childless = std::count(children.begin(), children.end(), 0);
    CHECK(g[l].stand_in.empty() == (childless == 0));
  }
  // Every grid's cells get a part in [0, 3), and the finest keeps METIS's.
  const mesh::Partition finest = mesh::metis_partition(g.back().mesh, 3, "cube");
  const auto parts = mg::inherit_parts(g, finest);
  CHECK(parts.back() == finest.part_of_cell);
  for (std::size_t l = 0; l < 3; ++l) {
    REQUIRE(parts[l].size() == g[l].mesh.cells.size());
    const auto sizes = mg::part_sizes(parts[l], 3);
    for (std::int64_t n : sizes) CHECK(n > 0);
  }
}

TEST_CASE("a refinement given as an independent mesh: the nested hierarchy's stencils, parents and parts") {
  const std::vector<mg::Grid> nested = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 3, "cube");
  std::vector<mesh::Mesh> meshes;
  for (const mg::Grid& g : nested) meshes.push_back(g.mesh);
  const std::vector<mg::Grid> seq = mg::build_sequence(meshes, {"a", "b", "c"});
  for (std::size_t l = 1; l < 3; ++l) {
    INFO("grid " << l);
    CHECK(nested[l].refined);
    CHECK_FALSE(seq[l].refined);
    // A refined grid derives its parents and stencils (Grid::parent, Grid::stencil); a
    // sequence's grid stores what point location found.
    CHECK(nested[l].parent_of.empty());
    CHECK(nested[l].from_coarse.empty());
    const std::size_t cells = nested[l].mesh.cells.size(), nodes = nested[l].mesh.nodes.size();
    REQUIRE(seq[l].parent_of.size() == cells);
    REQUIRE(seq[l].from_coarse.size() == nodes);
    std::size_t other_parent = 0;
    for (mg::Index c = 0; c < cells; ++c) {
      other_parent += nested[l].parent(c) != c / 8;
      other_parent += seq[l].parent(c) != nested[l].parent(c);
    }
    CHECK(other_parent == 0);
    CHECK(seq[l].stand_in.empty());
    std::size_t differ = 0;
    for (mg::Index n = 0; n < nodes; ++n) {
      const auto a = as_map(nested[l].stencil(n)), b = as_map(seq[l].stencil(n));
      bool same = a.size() == b.size();
      for (const auto& [node, w] : a) same = same && b.count(node) && std::fabs(b.at(node) - w) < 1e-12;
      differ += !same;
    }
    CHECK(differ == 0);
  }
  const mesh::Partition finest = mesh::metis_partition(nested.back().mesh, 4, "cube");
  CHECK(mg::inherit_parts(seq, finest) == mg::inherit_parts(nested, finest));
}

TEST_CASE("a sequence that does not nest or does not refine is refused with the place") {
  mesh::Mesh moved = meshtest::jittered_cube(4);
  for (mesh::Vec3& p : moved.nodes) p.x += 2.0;
  try {
    mg::build_sequence({mesh::kuhn_cube_mesh(2, 1.0), moved}, {"coarse.msh", "moved.msh"});
    FAIL("a fine grid beside the coarse one was accepted");
  } catch (const instrument::InputError& e) {
    CHECK_THAT(e.what(), Catch::Matches("moved\\.msh:node 0: a point on the domain of the coarser grid coarse\\.msh "
                                        "\\(the grids must nest\\); this one, at \\(2, 0, 0\\), is outside it"));
  }
  try {
    mg::build_sequence({mesh::kuhn_cube_mesh(3, 1.0), mesh::kuhn_cube_mesh(2, 1.0)}, {"fine.msh", "coarse.msh"});
    FAIL("a coarser grid after a finer one was accepted");
  } catch (const instrument::InputError& e) {
    CHECK_THAT(e.what(), Catch::Matches("coarse\\.msh:cells: more cells than the coarser grid before it in the sequence "
                                        "\\(162, fine\\.msh; coarsest first\\), got 48"));
  }
  // A fine grid a little outside the coarse one (a curved boundary meshed twice) is taken:
  // the nodes beyond it interpolate from the nearest cell, weights still positive, sum 1.
  mesh::Mesh bulged = meshtest::jittered_cube(4);
  for (mesh::Vec3& p : bulged.nodes) p.x = p.x * 1.02;
  const std::vector<mg::Grid> g = mg::build_sequence({mesh::kuhn_cube_mesh(2, 1.0), bulged}, {"a", "b"});
  for (const mg::CoarseStencil& s : g[1].from_coarse) {
    double sum = 0;
    for (std::uint32_t k = 0; k < s.count; ++k) sum += s.weight[k];
    CHECK(std::fabs(sum - 1) < 1e-12);
  }
}
