// Geometry and connectivity of hand-built meshes, against values worked by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "../input_error_text.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"

using namespace mesh;

namespace {

void check_vec(const Vec3& v, double x, double y, double z) {
  CHECK(v.x == Approx(x).margin(1e-15));
  CHECK(v.y == Approx(y).margin(1e-15));
  CHECK(v.z == Approx(z).margin(1e-15));
}

}  // namespace

TEST_CASE("six times the signed volume of the corner tetrahedron is +-1", "[geometry]") {
  const Vec3 o{0, 0, 0}, x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1};
  CHECK(six_signed_volume(o, x, y, z) == 1.0);
  CHECK(six_signed_volume(o, y, x, z) == -1.0);
  CHECK(six_signed_volume({1, 1, 1}, {3, 1, 1}, {1, 4, 1}, {1, 1, 6}) == 2.0 * 3.0 * 5.0);
}

TEST_CASE("the corner tetrahedron: volume 1/6, faces opposite nodes 0-3 with outward normals", "[geometry]") {
  const Mesh m = corner_tet_mesh();
  REQUIRE(m.cells.size() == 1);
  REQUIRE(m.faces.size() == 4);
  const CellGeometry& g = m.geometry[0];
  CHECK(g.volume == Approx(1.0 / 6).epsilon(1e-15));
  CHECK(g.boundary_faces == 0xF);
  // Local face i is opposite node i: (1,2,3) is the slanted face, the others lie on the
  // planes x = 0, y = 0, z = 0 and face away from the cell.
  const double s = 1 / std::sqrt(3.0);
  check_vec(g.outward_normal[0], s, s, s);
  check_vec(g.outward_normal[1], -1, 0, 0);
  check_vec(g.outward_normal[2], 0, -1, 0);
  check_vec(g.outward_normal[3], 0, 0, -1);
  CHECK(g.face_area[0] == Approx(std::sqrt(3.0) / 2).epsilon(1e-15));
  for (int i = 1; i < 4; ++i) CHECK(g.face_area[i] == 0.5);
  CHECK(m.faces[0].nodes == std::array<Index, 3>{1, 2, 3});
  CHECK(m.faces[3].cells == std::array<Index, 2>{0, kBoundary});
}

TEST_CASE("two tetrahedra sharing the face on x = 0 see its normal from opposite sides", "[geometry]") {
  const Mesh m = two_tet_mesh();
  REQUIRE(m.cells.size() == 2);
  REQUIRE(m.faces.size() == 7);
  REQUIRE(m.nodes.size() == 5);
  // Faces numbered as the cells reach them: cell 0 makes 0-3; cell 1's local faces 0, 2, 3
  // are new (4, 5, 6) and its local face 1, the triangle (0, 2, 3), is face 1.
  CHECK(m.cells[0].faces == std::array<Index, 4>{0, 1, 2, 3});
  CHECK(m.cells[1].faces == std::array<Index, 4>{4, 1, 5, 6});
  CHECK(m.faces[1].cells == std::array<Index, 2>{0, 1});
  CHECK_FALSE(m.faces[1].on_boundary());
  CHECK(m.cells[1].material == 2);
  check_vec(m.geometry[0].outward_normal[1], -1, 0, 0);
  check_vec(m.geometry[1].outward_normal[1], 1, 0, 0);
  CHECK(m.geometry[0].boundary_faces == 0xD);  // all but local face 1
  CHECK(m.geometry[1].boundary_faces == 0xD);
  CHECK(m.geometry[1].volume == Approx(1.0 / 6).epsilon(1e-15));
  // Cell 1's slanted face (nodes 4, 2, 3 = (-1,0,0), (0,1,0), (0,0,1)) faces (-1,1,1)/sqrt(3).
  const double s = 1 / std::sqrt(3.0);
  check_vec(m.geometry[1].outward_normal[0], -s, s, s);
  CHECK(node_opposite(m.cells[1], m.faces[1]) == 4);
}

TEST_CASE("Kuhn's cube: 6 tetrahedra of volume side^3/6, 12 boundary faces, closed cells", "[geometry]") {
  const Mesh m = kuhn_cube_mesh(1, 2.0);
  REQUIRE(m.cells.size() == 6);
  CHECK(m.faces.size() == 18);
  CHECK(m.nodes.size() == 8);
  int boundary = 0;
  double area = 0;
  for (const CellGeometry& g : m.geometry) {
    CHECK(g.volume == Approx(8.0 / 6).epsilon(1e-15));
    Vec3 sum;
    for (int i = 0; i < 4; ++i) {
      sum.x += g.outward_normal[i].x * g.face_area[i];
      sum.y += g.outward_normal[i].y * g.face_area[i];
      sum.z += g.outward_normal[i].z * g.face_area[i];
      if (g.boundary_faces & (1 << i)) {
        ++boundary;
        area += g.face_area[i];
      }
    }
    CHECK(std::abs(sum.x) + std::abs(sum.y) + std::abs(sum.z) < 1e-14);
  }
  CHECK(boundary == 12);
  CHECK(area == Approx(6 * 4.0).epsilon(1e-15));
}

// The order tycho's tests (cells named by index) and multigrid's default grid (its residual
// histories, bit for bit) rely on: nodes x fastest at exactly i / n, then y, then z; cells cube
// by cube in the same order, 6 a cube, each walking corner 0 -> 7 one axis at a time.
TEST_CASE("Kuhn's cube of n^3 cubes: node and cell order, coordinates exactly i/n", "[geometry]") {
  const int n = 3;
  const Mesh m = kuhn_cube_mesh(n, 1.0);
  REQUIRE(m.nodes.size() == 64);
  REQUIRE(m.cells.size() == 6 * 27);
  for (int k = 0, at = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i, ++at)
        CHECK(m.nodes[at] == Vec3{double(i) / n, double(j) / n, double(k) / n});
  const auto id = [](int i, int j, int k) { return static_cast<Index>(i + 4 * (j + 4 * k)); };
  // Cube (1, 2, 0): cells 6 * (1 + 3 * 2) .. + 5; its corner c at (1 + bit 0, 2 + bit 1, bit 2).
  const auto corner = [&](int c) { return id(1 + (c & 1), 2 + ((c >> 1) & 1), (c >> 2) & 1); };
  const int orders[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
  for (int t = 0; t < 6; ++t) {
    const Cell& c = m.cells[6 * 7 + t];
    const int a = orders[t][0], b = orders[t][1];
    CHECK(c.nodes == std::array<Index, 4>{corner(0), corner(a), corner(a + b), corner(7)});
    CHECK(c.material == 1);
  }
  // One cube of side 1 is the side-scaled single cube: the same mesh, bit for bit.
  const Mesh one = kuhn_cube_mesh(1, 1.0), scaled = kuhn_cube_mesh(1, 2.5);
  REQUIRE(one.nodes.size() == 8);
  for (int i = 0; i < 8; ++i) {
    CHECK(one.nodes[i] == Vec3{double(i & 1), double((i >> 1) & 1), double((i >> 2) & 1)});
    CHECK(scaled.nodes[i] == Vec3{2.5 * (i & 1), 2.5 * ((i >> 1) & 1), 2.5 * ((i >> 2) & 1)});
  }
  CHECK(one.cells == scaled.cells);
  CHECK(one.faces == scaled.faces);
}

TEST_CASE("Kuhn's slab: the cube's lowest layers, numbered as the cube's first cells and nodes", "[geometry]") {
  const int n = 4, layers = 2;
  const Mesh cube = kuhn_cube_mesh(n, 3.0), slab = kuhn_slab_mesh(n, layers, 3.0);
  REQUIRE(slab.cells.size() == static_cast<std::size_t>(6 * n * n * layers));
  REQUIRE(slab.nodes.size() == static_cast<std::size_t>((n + 1) * (n + 1) * (layers + 1)));
  // The slab's cells and nodes are the cube's first ones, bit for bit: cells are cube by cube
  // with z slowest, nodes x fastest then y then z.
  for (std::size_t c = 0; c < slab.cells.size(); ++c) CHECK(slab.cells[c] == cube.cells[c]);
  for (std::size_t i = 0; i < slab.nodes.size(); ++i) CHECK(slab.nodes[i] == cube.nodes[i]);
  double volume = 0, top = 0;
  for (const CellGeometry& g : slab.geometry) volume += g.volume;
  for (const Vec3& p : slab.nodes) top = std::max(top, p.z);
  CHECK(volume == Approx(3.0 * 3.0 * 3.0 * layers / n).epsilon(1e-13));
  CHECK(top == 3.0 * (double(layers) / n));
  // All the layers are the cube; more than n, or none, is refused.
  const Mesh whole = kuhn_slab_mesh(n, n, 3.0);
  CHECK(whole.cells == cube.cells);
  CHECK(whole.nodes == cube.nodes);
  CHECK_THROWS_AS(kuhn_slab_mesh(n, n + 1, 3.0), std::invalid_argument);
  CHECK_THROWS_AS(kuhn_slab_mesh(n, 0, 3.0), std::invalid_argument);
}

TEST_CASE("a triangle of three cells is refused naming the third cell", "[connectivity]") {
  const std::string text = input_error_text([] {
    (void)mesh_from_cells({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, -1}, {1, 1, 1}},
                          {{{0, 1, 2, 3}, 0}, {{0, 1, 2, 4}, 0}, {{0, 1, 2, 5}, 0}}, "three.msh");
  });
  CHECK(text == "three.msh:cell 2: non-manifold: the triangle of nodes 0, 1, 2 is already shared by cells 0 and 1");
}

TEST_CASE("check_mesh refuses a cell listing one face twice", "[checks]") {
  // Not reachable by a face-consistent file alone before other checks, so built directly.
  Mesh m = corner_tet_mesh();
  m.cells[0].faces[2] = m.cells[0].faces[1];
  m.faces.pop_back();
  m.faces.pop_back();
  m.cells[0].faces[3] = 1;
  const std::string text = input_error_text([&] { check_mesh(m, "m"); });
  CHECK(text == "m:cell 0: its 4 faces must be distinct, found 0, 1, 1, 1");
}

TEST_CASE("check_mesh refuses a cell whose faces are not its 4 triangles", "[checks]") {
  Mesh m = corner_tet_mesh();
  m.faces[3] = m.faces[0];  // the slanted triangle twice, the one on z = 0 missing
  const std::string text = input_error_text([&] { check_mesh(m, "m"); });
  CHECK(text == "m:cell 0: its faces must cover its 4 triangles, but its 1st and 4th faces (0, 3) are the same triangle");
}
