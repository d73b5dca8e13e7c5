// refine_uniform_corners (refine.hpp): the cells' corners, nodes and midpoint edges of
// refine_uniform, bit for bit, without faces; refined again from its own faceless result as
// from refine_uniform's; and a degenerate child refused with refine_uniform's message.
// RefinedCells::by_parent: each parent's midpoints and diagonal, the same children; checked alike.
// RefinedCells::deferred: the nodes and edges alone, each parent's split made later by a
// ParentSplitter from the parent's nodes, the same split and the same refusal; with
// RefinedNodes::omitted no points either, each derived (refined_midpoint) bit for bit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../input_error_text.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/refine.hpp"

#include "jittered_cube.hpp"

using namespace mesh;

namespace {

void require_same_cells(const Mesh& faced, const CornerMesh& cells_only) {
  REQUIRE(cells_only.cells.size() == faced.cells.size());
  REQUIRE(cells_only.nodes.size() == faced.nodes.size());
  CHECK(cell_corners(faced) == cells_only.cells);
  CHECK(std::memcmp(faced.nodes.data(), cells_only.nodes.data(), faced.nodes.size() * sizeof(Vec3)) == 0);
}

}  // namespace

TEST_CASE("refine_uniform_corners: refine_uniform's cells and nodes, twice, without faces", "[refine]") {
  const Mesh coarse = meshtest::jittered_cube(3);  // 162 cells, unstructured
  std::vector<std::array<Index, 2>> edges_faced, edges_cells;
  const Mesh faced = refine_uniform(coarse, "cube", RefinedGeometry::omitted, &edges_faced);
  const CornerMesh cells_only = refine_uniform_corners(coarse.nodes, cell_corners(coarse), "cube", &edges_cells);
  require_same_cells(faced, cells_only);
  CHECK(edges_faced == edges_cells);
  CHECK(edges_cells == sorted_edges(coarse));
  // Again: from the faced mesh and from the faceless one, the same grid.
  const Mesh faced2 = refine_uniform(faced, "cube", RefinedGeometry::omitted, &edges_faced);
  const CornerMesh cells_only2 = refine_uniform_corners(cells_only.nodes, cells_only.cells, "cube", &edges_cells);
  require_same_cells(faced2, cells_only2);
  CHECK(cells_only2.cells.size() == 64 * coarse.cells.size());
  CHECK(edges_faced == edges_cells);
}

TEST_CASE("refine_uniform_corners refuses a degenerate child as refine_uniform does", "[refine]") {
  // Flat tetrahedra of height eps over a long thin base: some are accepted, their children
  // flatter still; the two refinements refuse the same ones with the same line.
  int refused = 0;
  for (double eps : {1e-7, 3e-8, 1e-8, 3e-9, 1e-9}) {
    CAPTURE(eps);
    const std::vector<Vec3> nodes = {{0, 0, 0}, {1, 0, 0}, {0.5, 1e-3, 0}, {0.5, 2e-4, eps}};
    const Mesh flat = mesh_from_cells(nodes, {{{0, 1, 2, 3}, 0}}, "flat");
    const std::string faced = input_error_text([&] { (void)refine_uniform(flat, "flat"); });
    const std::string cells_only = input_error_text([&] { (void)refine_uniform_corners(flat.nodes, cell_corners(flat), "flat"); });
    CHECK(faced == cells_only);
    if (!cells_only.empty()) {
      ++refused;
      CHECK(cells_only.find("flat") != std::string::npos);
      CHECK(cells_only.find("degenerate") != std::string::npos);
    }
  }
  CHECK(refused > 0);
}

TEST_CASE("refine_uniform_corners checks a parent for its children: the same refusals, far from the origin too",
          "[refine]") {
  // The parent's check (an eighth of its volume against its children's longest edge) lets
  // the children through only where each child's own check would pass; near the limit they
  // are checked one by one. Flat cells swept across the limit, at the origin and moved far
  // from it (where the midpoints' rounding is largest against the cell's size): the same
  // cells refused, with the same line, as refine_uniform's check of every child.
  // Also scaled down to 1e-100 (volumes near the subnormals, where rounding is absolute): the
  // children are then checked one by one.
  for (const auto& [offset, scale] : {std::pair{0.0, 1.0}, std::pair{1e3, 1.0}, std::pair{1e6, 1.0},
                                      std::pair{0.0, 1e-100}}) {
    int refused = 0, accepted = 0;
    for (double eps = 2e-7; eps > 1e-10; eps *= 0.85) {
      CAPTURE(offset, scale, eps);
      const std::vector<Vec3> nodes = {{offset, offset, offset},
                                       {offset + scale, offset, offset},
                                       {offset + 0.5 * scale, offset + 1e-3 * scale, offset},
                                       {offset + 0.5 * scale, offset + 2e-4 * scale, offset + eps * scale}};
      const std::string made = input_error_text([&] { (void)mesh_from_cells(nodes, {{{0, 1, 2, 3}, 0}}, "flat"); });
      if (!made.empty()) continue;  // the parent itself refused
      const Mesh flat = mesh_from_cells(nodes, {{{0, 1, 2, 3}, 0}}, "flat");
      const std::string faced = input_error_text([&] { (void)refine_uniform(flat, "flat"); });
      const std::string cells_only = input_error_text([&] { (void)refine_uniform_corners(flat.nodes, cell_corners(flat), "flat"); });
      CHECK(faced == cells_only);
      if (cells_only.empty()) {
        ++accepted;
      } else {
        ++refused;
        CHECK(cells_only.find("degenerate") != std::string::npos);
      }
    }
    CAPTURE(offset, scale);
    CHECK(refused > 0);
    CHECK(accepted > 0);
  }
  // A cell flattened after its mesh was made (its fourth corner moved into the plane of the
  // other three): refused.
  const std::vector<Vec3> nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  Mesh one = mesh_from_cells(nodes, {{{0, 1, 2, 3}, 0}}, "one");
  one.nodes[3] = {0.25, 0.25, 0};  // into the opposite face's plane, after the mesh's check
  CHECK(input_error_text([&] { (void)refine_uniform_corners(one.nodes, cell_corners(one), "one"); }).find("degenerate") != std::string::npos);
}

TEST_CASE("refine_uniform_corners by parent: each parent's midpoints and diagonal give its children, bit for bit",
          "[refine]") {
  const Mesh coarse = meshtest::jittered_cube(3);  // 162 cells, unstructured: more than one diagonal chosen
  const std::vector<std::array<Index, 4>> parents = cell_corners(coarse);
  std::vector<std::array<Index, 2>> edges, edges_by_parent;
  const CornerMesh stored = refine_uniform_corners(coarse.nodes, parents, "cube", &edges);
  const CornerMesh by_parent = refine_uniform_corners(coarse.nodes, parents, "cube", &edges_by_parent, RefinedCells::by_parent);
  CHECK(by_parent.cells.empty());
  CHECK(stored.midpoints.empty());
  CHECK(edges_by_parent == edges);
  REQUIRE(by_parent.nodes.size() == stored.nodes.size());
  CHECK(std::memcmp(by_parent.nodes.data(), stored.nodes.data(), stored.nodes.size() * sizeof(Vec3)) == 0);
  REQUIRE(by_parent.midpoints.size() == parents.size());
  REQUIRE(by_parent.diagonals.size() == parents.size());
  std::array<int, 3> chosen{};
  for (std::size_t c = 0; c < parents.size(); ++c) {
    REQUIRE(by_parent.diagonals[c] < 3);
    ++chosen[by_parent.diagonals[c]];
    for (std::size_t e = 0; e < 6; ++e) {  // midpoint e is the node of edge kTetEdges[e]'s midpoint
      const Index a = parents[c][static_cast<std::size_t>(kTetEdges[e][0])], b = parents[c][static_cast<std::size_t>(kTetEdges[e][1])];
      const std::array<Index, 2> edge = {std::min(a, b), std::max(a, b)};
      REQUIRE(edges[by_parent.midpoints[c][e] - coarse.nodes.size()] == edge);
    }
    const std::array<CellNodes, 8> kids = refined_children(parents[c], by_parent.midpoints[c], by_parent.diagonals[c]);
    for (std::size_t k = 0; k < 8; ++k) REQUIRE(kids[k].nodes == stored.cells[8 * c + k]);
  }
  CHECK(std::count_if(chosen.begin(), chosen.end(), [](int n) { return n > 0; }) >= 2);
  // Deferred: the same nodes and edges, no splits; each parent's split made later, in any
  // order, is by_parent's.
  std::vector<std::array<Index, 2>> edges_deferred;
  const CornerMesh deferred = refine_uniform_corners(coarse.nodes, parents, "cube", &edges_deferred, RefinedCells::deferred);
  CHECK(deferred.cells.empty());
  CHECK(deferred.midpoints.empty());
  CHECK(deferred.diagonals.empty());
  CHECK(edges_deferred == edges);
  REQUIRE(deferred.nodes.size() == stored.nodes.size());
  CHECK(std::memcmp(deferred.nodes.data(), stored.nodes.data(), stored.nodes.size() * sizeof(Vec3)) == 0);
  // The nodes omitted as well: the same edges, no points (a program derives them).
  std::vector<std::array<Index, 2>> edges_bare;
  const CornerMesh bare =
      refine_uniform_corners(coarse.nodes, parents, "cube", &edges_bare, RefinedCells::deferred, RefinedNodes::omitted);
  CHECK(bare.nodes.empty());
  CHECK(bare.cells.empty());
  CHECK(bare.midpoints.empty());
  CHECK(edges_bare == edges);
  for (std::size_t k = 0; k < edges.size(); ++k) {  // the derived point is the stored one, bit for bit
    const Vec3 derived = refined_midpoint(coarse.nodes[edges[k][0]], coarse.nodes[edges[k][1]]);
    REQUIRE(std::memcmp(&stored.nodes[coarse.nodes.size() + k], &derived, sizeof derived) == 0);
  }
  for (RefinedCells kept : {RefinedCells::stored, RefinedCells::by_parent})
    CHECK_THROWS_AS(refine_uniform_corners(coarse.nodes, parents, "cube", nullptr, kept, RefinedNodes::omitted), std::logic_error);
  const ParentSplitter splitter(coarse.nodes, edges_deferred);
  for (std::size_t c = parents.size(); c-- > 0;) {
    std::array<Index, 6> m{};
    std::uint8_t d = 9;
    splitter.split(parents[c], c, "cube", m, d);
    REQUIRE(m == by_parent.midpoints[c]);
    REQUIRE(d == by_parent.diagonals[c]);
  }
  std::vector<std::array<Index, 2>> swapped = edges_deferred;
  std::swap(swapped[3], swapped[4]);  // out of order
  CHECK_THROWS_AS(ParentSplitter(coarse.nodes, swapped), std::logic_error);
  swapped = edges_deferred;
  swapped.back() = {swapped.back()[0], static_cast<Index>(coarse.nodes.size())};  // a midpoint as an end
  CHECK_THROWS_AS(ParentSplitter(coarse.nodes, swapped), std::logic_error);
  std::array<Index, 6> unused_m{};
  std::uint8_t unused_d = 0;
  // Sorted edges with one missing (not this mesh's): a parent that has it is refused, not
  // given another edge's midpoint.
  std::vector<std::array<Index, 2>> fewer = edges_deferred;
  fewer.erase(fewer.begin());
  const ParentSplitter short_splitter(coarse.nodes, fewer);
  std::size_t with_first = parents.size();
  for (std::size_t c = 0; c < parents.size() && with_first == parents.size(); ++c)
    for (const auto& e : kTetEdges) {
      const Index a = parents[c][static_cast<std::size_t>(e[0])], b = parents[c][static_cast<std::size_t>(e[1])];
      if (std::array<Index, 2>{std::min(a, b), std::max(a, b)} == edges_deferred.front()) with_first = c;
    }
  REQUIRE(with_first < parents.size());
  CHECK_THROWS_AS(short_splitter.split(parents[with_first], with_first, "cube", unused_m, unused_d), std::logic_error);
  CHECK_THROWS_AS(splitter.split({0, 1, 2, static_cast<Index>(coarse.nodes.size())}, 0, "cube", unused_m, unused_d),
                  std::logic_error);
  // A flat parent's children refused alike when they are kept by parent.
  for (double eps : {1e-7, 3e-8, 1e-8, 3e-9, 1e-9}) {
    const std::vector<Vec3> flat_nodes = {{0, 0, 0}, {1, 0, 0}, {0.5, 1e-3, 0}, {0.5, 2e-4, eps}};
    const std::vector<std::array<Index, 4>> flat = {{0, 1, 2, 3}};
    CAPTURE(eps);
    const std::string whole = input_error_text([&] { (void)refine_uniform_corners(flat_nodes, flat, "flat"); });
    CHECK(input_error_text([&] { (void)refine_uniform_corners(flat_nodes, flat, "flat", nullptr, RefinedCells::by_parent); }) ==
          whole);
    // Deferred: made without a word, then the same refusal from the parent's split.
    CornerMesh deferred_flat;
    std::vector<std::array<Index, 2>> flat_edges;
    CHECK(input_error_text([&] {
            deferred_flat = refine_uniform_corners(flat_nodes, flat, "flat", &flat_edges, RefinedCells::deferred);
          }).empty());
    CHECK(deferred_flat.midpoints.empty());
    const ParentSplitter flat_splitter(flat_nodes, flat_edges);
    std::array<Index, 6> m{};
    std::uint8_t d = 0;
    CHECK(input_error_text([&] { flat_splitter.split(flat[0], 0, "flat", m, d); }) == whole);
  }
  CHECK_FALSE(input_error_text([&] {
                (void)refine_uniform_corners({{0, 0, 0}, {1, 0, 0}, {0.5, 1e-3, 0}, {0.5, 2e-4, 1e-9}}, {{0, 1, 2, 3}},
                                             "flat", nullptr, RefinedCells::by_parent);
              }).empty());
}
