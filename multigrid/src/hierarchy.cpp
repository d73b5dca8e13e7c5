// The nested grids (hierarchy.hpp).
#include "multigrid/hierarchy.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "instrument/error.hpp"

#include "tycho/mesh_checks.hpp"
#include "tycho/mesh_from_cells.hpp"
#include "tycho/mesh_geometry.hpp"
#include "tycho/refine.hpp"

namespace mg {

namespace {

std::vector<std::uint8_t> boundary_nodes(const tycho::Mesh& mesh) {
  std::vector<std::uint8_t> on(mesh.nodes.size(), 0);
  for (const tycho::Face& f : mesh.faces)
    if (f.on_boundary())
      for (Index n : f.nodes) on[n] = 1;
  return on;
}

// The coarse mesh's edges sorted by (low, high) node: the order refine_uniform numbers the
// midpoints in (refine.hpp).
std::vector<std::array<Index, 2>> sorted_edges(const tycho::Mesh& mesh) {
  std::vector<std::array<Index, 2>> edges;
  edges.reserve(6 * mesh.cells.size());
  for (const tycho::Cell& c : mesh.cells)
    for (const auto& e : tycho::kTetEdges) {
      const Index a = c.nodes[e[0]], b = c.nodes[e[1]];
      edges.push_back(a < b ? std::array<Index, 2>{a, b} : std::array<Index, 2>{b, a});
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace

void check_nodes(const tycho::Mesh& mesh, const std::string& name) {
  std::vector<std::uint8_t> used(mesh.nodes.size(), 0);
  for (const tycho::Cell& c : mesh.cells)
    for (Index n : c.nodes) used[n] = 1;
  for (std::size_t n = 0; n < used.size(); ++n)
    if (!used[n])
      throw instrument::InputError(name, "node " + std::to_string(n), "every node in some cell; this one is in none (a dangling node)");
  std::vector<Index> order(mesh.nodes.size());
  for (std::size_t n = 0; n < order.size(); ++n) order[n] = static_cast<Index>(n);
  const auto key = [&](Index n) { return std::tuple(mesh.nodes[n].x, mesh.nodes[n].y, mesh.nodes[n].z); };
  std::sort(order.begin(), order.end(), [&](Index a, Index b) { return key(a) < key(b) || (key(a) == key(b) && a < b); });
  for (std::size_t k = 1; k < order.size(); ++k)
    if (key(order[k]) == key(order[k - 1]))
      throw instrument::InputError(name, "node " + std::to_string(order[k]),
                                   "distinct nodes; this one is at the point of node " + std::to_string(order[k - 1]) +
                                       " (a duplicate node)");
}

std::vector<Grid> build_hierarchy(const tycho::Mesh& coarse, int levels, const std::string& name) {
  std::vector<Grid> grids;
  grids.reserve(static_cast<std::size_t>(levels));
  grids.push_back({coarse, boundary_nodes(coarse), 0, {}});
  for (int l = 1; l < levels; ++l) {
    const tycho::Mesh& parent = grids.back().mesh;
    Grid g;
    g.coarse_nodes = parent.nodes.size();
    g.midpoint_of = sorted_edges(parent);
    g.mesh = tycho::refine_uniform(parent, name);
    g.dirichlet = boundary_nodes(g.mesh);
    grids.push_back(std::move(g));
  }
  return grids;
}

tycho::Mesh kuhn_cube_grid(int n) {
  const auto id = [n](int i, int j, int k) { return static_cast<Index>(i + (n + 1) * (j + (n + 1) * k)); };
  std::vector<tycho::Vec3> nodes;
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) nodes.push_back({double(i) / n, double(j) / n, double(k) / n});
  // Corner c of a small cube: x = bit 0, y = bit 1, z = bit 2. Each tetrahedron walks from
  // corner 0 to corner 7 one axis at a time; the same diagonal in every cube keeps the faces
  // shared between cubes matched.
  const int orders[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
  std::vector<tycho::CellNodes> cells;
  cells.reserve(6 * static_cast<std::size_t>(n) * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const auto corner = [&](int c) { return id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1)); };
        for (const auto& o : orders)
          cells.push_back({{corner(0), corner(o[0]), corner(o[0] + o[1]), corner(7)}, 1});
      }
  const std::string name = "Kuhn cube " + std::to_string(n) + "^3";
  tycho::Mesh mesh = tycho::mesh_from_cells(std::move(nodes), cells, name);
  tycho::check_mesh(mesh, name);
  tycho::compute_geometry(mesh);
  return mesh;
}

}  // namespace mg
