// mesh_from_cells, refine_uniform's edges and check_mesh's duplicate-triangle check find their
// answers by bucketing on the lowest node (issue 40: the multigrid set-up). Each is checked
// here against the one global sort it replaced, kept below as the reference: the same faces
// in the same order with the same cells, the same midpoint numbering, the same first error.
// tycho and multigrid depend on those numberings bit for bit (face order drives the sweep,
// node order the partitions and the smoother's layout).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../input_error_text.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/refine.hpp"

#include "jittered_cube.hpp"

using namespace mesh;

namespace {

// The faces as the former mesh_from_cells made them: every side sorted by (triangle, cell,
// local face), runs of equal triangles, faces numbered by each run's first side.
struct ReferenceFaces {
  std::vector<Face> faces;
  std::vector<std::array<Index, 4>> cell_faces;
};

ReferenceFaces reference_faces(const std::vector<CellNodes>& cells) {
  struct Side {
    std::array<Index, 3> key;
    Index cell;
    std::uint8_t local;
  };
  std::vector<Side> sides;
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (std::uint8_t i = 0; i < 4; ++i) {
      Side s{{}, static_cast<Index>(c), i};
      std::size_t k = 0;
      for (std::size_t j = 0; j < 4; ++j)
        if (j != i) s.key[k++] = cells[c].nodes[j];
      std::sort(s.key.begin(), s.key.end());
      sides.push_back(s);
    }
  std::sort(sides.begin(), sides.end(), [](const Side& a, const Side& b) {
    if (a.key != b.key) return a.key < b.key;
    return a.cell != b.cell ? a.cell < b.cell : a.local < b.local;
  });
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t i = 0; i < sides.size();) {
    std::size_t j = i + 1;
    while (j < sides.size() && sides[j].key == sides[i].key) ++j;
    runs.push_back({i, j - i});
    i = j;
  }
  std::sort(runs.begin(), runs.end(), [&](const auto& a, const auto& b) {
    const Side &x = sides[a.first], &y = sides[b.first];
    return x.cell != y.cell ? x.cell < y.cell : x.local < y.local;
  });
  ReferenceFaces r;
  r.cell_faces.resize(cells.size());
  for (std::size_t f = 0; f < runs.size(); ++f) {
    const Side& s0 = sides[runs[f].first];
    Face face;
    std::size_t k = 0;
    for (std::size_t j = 0; j < 4; ++j)
      if (j != s0.local) face.nodes[k++] = cells[s0.cell].nodes[j];
    face.cells = {s0.cell, kBoundary};
    r.cell_faces[s0.cell][s0.local] = static_cast<Index>(f);
    if (runs[f].second == 2) {
      const Side& s1 = sides[runs[f].first + 1];
      face.cells[1] = s1.cell;
      r.cell_faces[s1.cell][s1.local] = static_cast<Index>(f);
    }
    r.faces.push_back(face);
  }
  return r;
}

std::vector<CellNodes> cells_of(const Mesh& m) {
  std::vector<CellNodes> cells;
  for (const Cell& c : m.cells) cells.push_back({c.nodes, c.material});
  return cells;
}

// The cells in a scrambled order, each with its corners rotated by its number: faces then
// meet in every order of cells and local faces, not only the refinement's tidy one.
std::vector<CellNodes> scrambled(std::vector<CellNodes> cells) {
  std::vector<CellNodes> out;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    CellNodes c = cells[(k * 7919) % cells.size()];
    std::rotate(c.nodes.begin(), c.nodes.begin() + static_cast<std::ptrdiff_t>(k % 4), c.nodes.end());
    if (k % 3 == 0) std::swap(c.nodes[0], c.nodes[1]);
    out.push_back(c);
  }
  return out;
}

void check_faces_match(const std::vector<Vec3>& nodes, const std::vector<CellNodes>& cells) {
  const Mesh m = mesh_from_cells(nodes, cells, "cells");
  const ReferenceFaces r = reference_faces(cells);
  REQUIRE(m.faces.size() == r.faces.size());
  for (std::size_t f = 0; f < r.faces.size(); ++f) REQUIRE(m.faces[f] == r.faces[f]);
  for (std::size_t c = 0; c < cells.size(); ++c) REQUIRE(m.cells[c].faces == r.cell_faces[c]);
}

}  // namespace

TEST_CASE("mesh_from_cells numbers faces as one global sort did, in any cell order", "[mesh_from_cells]") {
  const Mesh coarse = meshtest::jittered_cube(4);
  const Mesh once = refine_uniform(coarse, "x1");
  check_faces_match(coarse.nodes, cells_of(coarse));
  check_faces_match(once.nodes, cells_of(once));
  check_faces_match(once.nodes, scrambled(cells_of(once)));  // 3072 cells, 7919 prime to it
}

TEST_CASE("mesh_from_cells names the third cell of a triangle as the global sort did", "[mesh_from_cells]") {
  // Cells 0, 1 and 2 share the triangle (1, 2, 3); cell 3 shares (0, 1, 2) with cell 0 too.
  const std::vector<Vec3> nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {2, 2, 2}, {0, 0, -1}};
  const std::vector<CellNodes> cells = {{{0, 1, 2, 3}, 0}, {{4, 1, 2, 3}, 0}, {{3, 2, 1, 5}, 0}, {{0, 1, 2, 6}, 0}};
  CHECK(input_error_text([&] { (void)mesh_from_cells(nodes, cells, "t"); }) ==
        "t:cell 2: non-manifold: the triangle of nodes 1, 2, 3 is already shared by cells 0 and 1");
}

TEST_CASE("sorted_edges and refine_uniform's midpoints follow the sorted (low, high) edges", "[refine]") {
  const Mesh coarse = meshtest::jittered_cube(3);
  std::vector<std::array<Index, 2>> expected;
  for (const Cell& c : coarse.cells)
    for (const auto& e : kTetEdges) {
      const Index a = c.nodes[e[0]], b = c.nodes[e[1]];
      expected.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  REQUIRE(sorted_edges(coarse) == expected);
  std::vector<std::array<Index, 2>> midpoint_edges;
  const Mesh fine = refine_uniform(coarse, "x1", RefinedGeometry::computed, &midpoint_edges);
  CHECK(midpoint_edges == expected);  // the edges it found, handed back
  REQUIRE(fine.nodes.size() == coarse.nodes.size() + expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const Vec3 &p = coarse.nodes[expected[k][0]], &q = coarse.nodes[expected[k][1]];
    CHECK(fine.nodes[coarse.nodes.size() + k] == Vec3{0.5 * (p.x + q.x), 0.5 * (p.y + q.y), 0.5 * (p.z + q.z)});
  }
  // The first child of cell c is its corner 0 with the midpoints of its edges 01, 02, 03.
  for (std::size_t c = 0; c < coarse.cells.size(); ++c) {
    const auto& v = coarse.cells[c].nodes;
    const auto mid = [&](Index a, Index b) {
      const std::array<Index, 2> e{std::min(a, b), std::max(a, b)};
      return static_cast<Index>(coarse.nodes.size() +
                                static_cast<std::size_t>(std::lower_bound(expected.begin(), expected.end(), e) -
                                                         expected.begin()));
    };
    CHECK(fine.cells[8 * c].nodes == std::array<Index, 4>{v[0], mid(v[0], v[1]), mid(v[0], v[2]), mid(v[0], v[3])});
  }
}

TEST_CASE("refine_uniform without geometry is the same mesh, its geometry left empty", "[refine]") {
  const Mesh coarse = meshtest::jittered_cube(3);
  const Mesh with = refine_uniform(coarse, "x1"), without = refine_uniform(coarse, "x1", RefinedGeometry::omitted);
  CHECK(without.geometry.empty());
  CHECK(with.geometry.size() == with.cells.size());
  CHECK(without.nodes == with.nodes);
  CHECK(without.cells == with.cells);
  CHECK(without.faces == with.faces);
}

TEST_CASE("check_mesh names the first duplicated triangle in the order of the global sort", "[checks]") {
  // Two cells on the triangle (1, 2, 3), each listing its own copy of it (face 7 the copy).
  Mesh m = mesh_from_cells({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}},
                           {{{0, 1, 2, 3}, 0}, {{4, 1, 2, 3}, 0}}, "two");
  REQUIRE(m.faces.size() == 7);
  const Index shared = m.cells[1].faces[0];  // the triangle (1, 2, 3)
  m.faces.push_back(m.faces[shared]);
  m.faces.back().cells = {1, kBoundary};
  m.faces[shared].cells = {0, kBoundary};
  m.cells[1].faces[0] = static_cast<Index>(m.faces.size() - 1);
  CHECK(input_error_text([&] { check_mesh(m, "two"); }) ==
        "two:face 7: non-manifold: the same triangle (nodes 1, 2, 3) as face " + std::to_string(shared) +
            "; each triangle must be one face of at most two cells");
}

TEST_CASE("check_mesh_from_cells passes a refined mesh and refuses a flat cell as check_mesh does", "[checks]") {
  const Mesh fine = refine_uniform(meshtest::jittered_cube(3), "x1");
  CHECK(input_error_text([&] { check_mesh_from_cells(fine, "x1"); }) == "");
  // A fourth corner in the plane of the other three: degenerate.
  const Mesh flat = mesh_from_cells({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, {{{0, 1, 2, 3}, 0}}, "flat");
  const std::string full = input_error_text([&] { check_mesh(flat, "flat"); });
  CHECK(full.find("flat:cell 0: degenerate") == 0);
  CHECK(input_error_text([&] { check_mesh_from_cells(flat, "flat"); }) == full);
  // check_refined_cells (what refine_uniform checks when it paired the faces from the
  // parent's): the same verdicts on both.
  CHECK(input_error_text([&] { check_refined_cells(fine, "x1"); }) == "");
  CHECK(input_error_text([&] { check_refined_cells(flat, "flat"); }) == full);
}

TEST_CASE("refine_uniform's faces, paired from the parent's, are the ones mesh_from_cells finds", "[refine]") {
  // A parent in the refinement's order and one whose cells and corners are scrambled (faces
  // met in every order); twice, so that a refined mesh's faces are paired again.
  const Mesh jittered = meshtest::jittered_cube(3);
  for (const Mesh& coarse : {jittered, mesh_from_cells(jittered.nodes, scrambled(cells_of(jittered)), "scrambled")}) {
    const Mesh once = refine_uniform(coarse, "x1"), twice = refine_uniform(once, "x2");
    for (const Mesh* fine : {&once, &twice}) {
      const Mesh searched = mesh_from_cells(fine->nodes, cells_of(*fine), "searched");
      CHECK(fine->faces == searched.faces);
      CHECK(fine->cells == searched.cells);
    }
  }
}
