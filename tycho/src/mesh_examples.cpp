#include "tycho/mesh_examples.hpp"

#include <cmath>

#include "tycho/mesh_checks.hpp"
#include "tycho/mesh_from_cells.hpp"
#include "tycho/mesh_geometry.hpp"

namespace tycho {

namespace {

Mesh checked(Mesh mesh, const char* name) {
  check_mesh(mesh, name);
  compute_geometry(mesh);
  return mesh;
}

}  // namespace

Mesh corner_tet_mesh() {
  return checked(mesh_from_cells({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{{0, 1, 2, 3}, 1}}, "corner tet"),
                 "corner tet");
}

Mesh two_tet_mesh() {
  return checked(mesh_from_cells({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}},
                                 {{{0, 1, 2, 3}, 1}, {{0, 4, 2, 3}, 2}}, "two tets"),
                 "two tets");
}

Mesh kuhn_cube_mesh(double side) {
  // Node i has x = bit 0, y = bit 1, z = bit 2 of i. Each tetrahedron walks from corner 0
  // to corner 7 adding one axis at a time, in one of the 6 orders of the axes.
  std::vector<Vec3> nodes;
  for (int i = 0; i < 8; ++i) nodes.push_back({side * (i & 1), side * ((i >> 1) & 1), side * ((i >> 2) & 1)});
  const int orders[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
  std::vector<CellNodes> cells;
  for (const auto& o : orders)
    cells.push_back({{0, static_cast<Index>(o[0]), static_cast<Index>(o[0] + o[1]), 7}, 1});
  return checked(mesh_from_cells(std::move(nodes), cells, "Kuhn cube"), "Kuhn cube");
}

Mesh twisted_prism_mesh(double twist, bool along_twist) {
  const double pi = std::acos(-1.0), t = twist * pi / 180;
  std::vector<Vec3> nodes;
  for (int i = 0; i < 3; ++i) nodes.push_back({std::cos(2 * pi * i / 3), std::sin(2 * pi * i / 3), 0});
  for (int i = 0; i < 3; ++i) nodes.push_back({std::cos(2 * pi * i / 3 + t), std::sin(2 * pi * i / 3 + t), 1});
  nodes.push_back({0, 0, 0.5});
  const Index p = 6;
  std::vector<CellNodes> cells{{{p, 0, 1, 2}, 1}, {{p, 3, 4, 5}, 1}};
  for (Index i = 0; i < 3; ++i) {
    const Index a0 = i, a1 = (i + 1) % 3, b0 = 3 + i, b1 = 3 + (i + 1) % 3;
    if (along_twist) {
      cells.push_back({{p, a0, a1, b1}, 1});
      cells.push_back({{p, a0, b1, b0}, 1});
    } else {
      cells.push_back({{p, a0, a1, b0}, 1});
      cells.push_back({{p, a1, b1, b0}, 1});
    }
  }
  return checked(mesh_from_cells(std::move(nodes), cells, "twisted prism"), "twisted prism");
}

}  // namespace tycho
