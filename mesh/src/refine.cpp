// Uniform refinement (refine.hpp): midpoints numbered from the sorted edge list, then each
// cell replaced by its eight children, the faces found again by mesh_from_cells.
#include "mesh/refine.hpp"

#include <algorithm>
#include <utility>

#include "instrument/error.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"

namespace mesh {

namespace {

using EdgeKey = std::pair<Index, Index>;  // (low, high) node

EdgeKey edge_key(const Cell& cell, int e) {
  const Index a = cell.nodes[kTetEdges[e][0]], b = cell.nodes[kTetEdges[e][1]];
  return a < b ? EdgeKey{a, b} : EdgeKey{b, a};
}

double distance2(const Vec3& a, const Vec3& b) {
  const double x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
  return x * x + y * y + z * z;
}

void refuse_if_too_large(std::uint64_t count, const char* what, const std::string& name) {
  if (count > kMaxEntities)
    throw instrument::InputError(name, "refinement",
                                 "the refined mesh would have " + std::to_string(count) + " " + what +
                                     ", more than the " + std::to_string(kMaxEntities) + " a mesh may hold");
}

}  // namespace

Mesh refine_uniform(const Mesh& mesh, const std::string& name) {
  const std::size_t n_cells = mesh.cells.size();
  refuse_if_too_large(8 * std::uint64_t{n_cells}, "cells", name);
  // Each face splits into 4; each cell adds 8 inside it (4 corner tets against the
  // octahedron, 4 around the octahedron's diagonal).
  refuse_if_too_large(4 * std::uint64_t{mesh.faces.size()} + 8 * std::uint64_t{n_cells}, "faces", name);

  std::vector<EdgeKey> edges;
  edges.reserve(6 * n_cells);
  for (const Cell& cell : mesh.cells)
    for (int e = 0; e < 6; ++e) edges.push_back(edge_key(cell, e));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  refuse_if_too_large(mesh.nodes.size() + std::uint64_t{edges.size()}, "nodes", name);

  std::vector<Vec3> nodes = mesh.nodes;
  nodes.reserve(mesh.nodes.size() + edges.size());
  for (const auto& [a, b] : edges) {
    const Vec3 &p = mesh.nodes[a], &q = mesh.nodes[b];
    nodes.push_back({0.5 * (p.x + q.x), 0.5 * (p.y + q.y), 0.5 * (p.z + q.z)});
  }
  const auto midpoint = [&](const Cell& cell, int e) {
    const auto at = std::lower_bound(edges.begin(), edges.end(), edge_key(cell, e));
    return static_cast<Index>(mesh.nodes.size() + static_cast<std::size_t>(at - edges.begin()));
  };

  std::vector<CellNodes> children;
  children.reserve(8 * n_cells);
  for (const Cell& cell : mesh.cells) {
    const auto& v = cell.nodes;
    Index m[6];  // m[e]: midpoint of kTetEdges[e]
    for (int e = 0; e < 6; ++e) m[e] = midpoint(cell, e);
    const Index m01 = m[0], m02 = m[1], m03 = m[2], m12 = m[3], m13 = m[4], m23 = m[5];
    const std::uint32_t mat = cell.material;
    children.push_back({{v[0], m01, m02, m03}, mat});
    children.push_back({{m01, v[1], m12, m13}, mat});
    children.push_back({{m02, m12, v[2], m23}, mat});
    children.push_back({{m03, m13, m23, v[3]}, mat});
    // The octahedron's three diagonals join midpoints of opposite edges; around each, the
    // other four midpoints in ring order (consecutive ones share a parent node).
    struct Diagonal {
      Index a, b;
      Index ring[4];
    };
    const Diagonal diagonals[3] = {{m01, m23, {m02, m03, m13, m12}},
                                   {m02, m13, {m01, m03, m23, m12}},
                                   {m03, m12, {m01, m02, m23, m13}}};
    int best = 0;
    double best_length = distance2(nodes[diagonals[0].a], nodes[diagonals[0].b]);
    for (int d = 1; d < 3; ++d) {
      const double length = distance2(nodes[diagonals[d].a], nodes[diagonals[d].b]);
      if (length < best_length) best = d, best_length = length;
    }
    const Diagonal& d = diagonals[best];
    for (int k = 0; k < 4; ++k) children.push_back({{d.a, d.b, d.ring[k], d.ring[(k + 1) % 4]}, mat});
  }
  Mesh fine = mesh_from_cells(std::move(nodes), children, name);
  check_mesh(fine, name);
  compute_geometry(fine);
  return fine;
}

}  // namespace mesh
