#include "mesh/mesh_examples.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"

namespace mesh {

namespace {

Mesh checked(Mesh mesh, const std::string& name) {
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

Mesh kuhn_cube_mesh(int n, double side) { return kuhn_slab_mesh(n, n, side); }

Mesh kuhn_slab_mesh(int n, int layers, double side) {
  if (n < 1 || layers < 1 || layers > n)
    throw std::invalid_argument("kuhn_slab_mesh: expected 1 <= layers <= n, got n = " + std::to_string(n) +
                                ", layers = " + std::to_string(layers));
  const auto id = [n](int i, int j, int k) { return static_cast<Index>(i + (n + 1) * (j + (n + 1) * k)); };
  std::vector<Vec3> nodes;
  nodes.reserve(static_cast<std::size_t>(n + 1) * (n + 1) * (layers + 1));
  // side * (i / n), not side * i / n: at side 1 the coordinates are exactly i / n, the bits
  // multigrid's residual histories were computed on.
  for (int k = 0; k <= layers; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) nodes.push_back({side * (double(i) / n), side * (double(j) / n), side * (double(k) / n)});
  // Corner c of a small cube: x = bit 0, y = bit 1, z = bit 2. Each tetrahedron walks from
  // corner 0 to corner 7 adding one axis at a time, in one of the 6 orders of the axes; the
  // same diagonal in every cube keeps the faces shared between cubes matched.
  const int orders[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
  std::vector<CellNodes> cells;
  cells.reserve(6 * static_cast<std::size_t>(n) * n * layers);
  for (int k = 0; k < layers; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const auto corner = [&](int c) { return id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1)); };
        for (const auto& o : orders) cells.push_back({{corner(0), corner(o[0]), corner(o[0] + o[1]), corner(7)}, 1});
      }
  const std::string name = "Kuhn cube " + std::to_string(n) + "^3" +
                           (layers < n ? ", its lowest " + std::to_string(layers) + " layers" : "");
  return checked(mesh_from_cells(std::move(nodes), cells, name), name);
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

}  // namespace mesh
