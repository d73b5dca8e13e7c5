// The nested grids (hierarchy.hpp).
#include "multigrid/hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "instrument/error.hpp"
#include "mesh/point_location.hpp"
#include "mesh/mesh_reader.hpp"

#include "instrument/huge_pages.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/refine.hpp"

namespace mg {

namespace {

std::vector<std::uint8_t> boundary_nodes(const mesh::Mesh& mesh) {
  std::vector<std::uint8_t> on(mesh.nodes.size(), 0);
  for (const mesh::Face& f : mesh.faces)
    if (f.on_boundary())
      for (Index n : f.nodes) on[n] = 1;
  return on;
}

using Triangle = std::array<Index, 3>;

std::vector<Triangle> boundary_triangles(const mesh::Mesh& mesh) {
  std::vector<Triangle> t;
  for (const mesh::Face& f : mesh.faces)
    if (f.on_boundary()) t.push_back(f.nodes);
  return t;
}

// The refined grid's boundary triangles: each coarse one's 4 children (corners and the
// midpoints of its edges, whose node is coarse_nodes + the edge's place in midpoint_of), and
// its Dirichlet nodes, theirs: what boundary_nodes finds on the grid's faces, without them.
// The edges are sorted by (low, high): each low node's few are found from where its run
// starts (one pass over the edges), not by a search of all of them.
std::vector<Triangle> refine_boundary(const std::vector<Triangle>& coarse, const Grid& g) {
  const MidpointLookup mid(g);
  const auto midpoint = [&mid](Index a, Index b) { return mid.node(a, b); };
  std::vector<Triangle> fine;
  fine.reserve(4 * coarse.size());
  for (const Triangle& t : coarse) {
    const Index m01 = midpoint(t[0], t[1]), m02 = midpoint(t[0], t[2]), m12 = midpoint(t[1], t[2]);
    fine.push_back({t[0], m01, m02});
    fine.push_back({t[1], m01, m12});
    fine.push_back({t[2], m02, m12});
    fine.push_back({m01, m02, m12});
  }
  return fine;
}

std::vector<std::uint8_t> nodes_of(const std::vector<Triangle>& triangles, std::size_t nodes) {
  std::vector<std::uint8_t> on(nodes, 0);
  for (const Triangle& t : triangles)
    for (Index n : t) on[n] = 1;
  return on;
}

// Holds the finest grid's parents q for which mine(q) (besides those held already), then splits
// every held parent not split yet (mesh::ParentSplitter: the refinement's splits, each
// parent's children checked).
template <class Mine>
void split_parents(std::vector<Grid>& grids, const Mine& mine, const std::string& name) {
  Grid& fine = grids.back();
  const Grid& coarse = grids[grids.size() - 2];
  fine.splits.hold(mine);
  const mesh::ParentSplitter splitter(coarse.mesh.nodes, fine.midpoint_of);
  for (std::size_t q = 0; q < coarse.cell_count(); ++q) {
    const Index p = static_cast<Index>(q);
    if (fine.splits.held(p) && !fine.splits.has_split(p))
      splitter.split(coarse.cell(q), q, name, fine.splits.midpoints(p), fine.splits.diagonal(p));
  }
}

}  // namespace

// The solver's arithmetic forms products of up to six lengths (a cell's Gram matrix over its
// volume squared): a mesh of edge 1e-90 underflows them to 0 and the solve turns into NaN.
// Extents between kMinExtent and kMaxExtent keep every such product normal with room to
// spare; any physical domain fits once its unit is chosen.
namespace {

constexpr double kMinExtent = 1e-30, kMaxExtent = 1e30;

void check_extent(const mesh::Mesh& mesh, const std::string& name) {
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  bool finite = true;
  for (const mesh::Vec3& v : mesh.nodes) {
    const double xyz[3] = {v.x, v.y, v.z};
    for (int d = 0; d < 3; ++d) {
      finite = finite && std::isfinite(xyz[d]);
      lo[d] = std::min(lo[d], xyz[d]);
      hi[d] = std::max(hi[d], xyz[d]);
    }
  }
  const double extent = finite ? std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}) : NAN;
  if (!(extent >= kMinExtent && extent <= kMaxExtent)) {
    std::ostringstream found;
    found << std::setprecision(3) << extent;
    throw instrument::InputError(name, "nodes", "a domain whose largest extent is between 1e-30 and 1e30 (rescale its unit), found " + found.str());
  }
}

}  // namespace

void check_nodes(const mesh::Mesh& mesh, const std::string& name) {
  check_extent(mesh, name);
  std::vector<std::uint8_t> used(mesh.nodes.size(), 0);
  for (const mesh::Cell& c : mesh.cells)
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

std::vector<Grid> build_hierarchy(mesh::Mesh coarse, int levels, const std::string& name, GridFaces faces,
                                  FinestCells finest) {
  if (finest != FinestCells::stored && (faces != GridFaces::omitted || levels < 2))
    throw std::logic_error("build_hierarchy: a finest grid kept by parent is a refinement without faces");
  std::vector<Grid> grids;
  grids.reserve(static_cast<std::size_t>(levels));
  std::vector<Triangle> boundary;  // the finest grid's so far, with faces omitted
  if (faces == GridFaces::omitted) boundary = boundary_triangles(coarse);
  Grid coarsest;
  coarsest.dirichlet = boundary_nodes(coarse);
  coarsest.mesh = std::move(coarse);  // not a second copy beside the caller's while the grids are made
  grids.push_back(std::move(coarsest));
  for (int l = 1; l < levels; ++l) {
    const Grid& parent = grids.back();
    Grid g;
    g.coarse_nodes = parent.mesh.nodes.size();
    // No geometry (no use for it here), no faces if omitted; midpoint_of: the sorted edges,
    // whose order numbers the midpoints.
    if (faces == GridFaces::omitted) {
      // The coarsest grid's corners copied (a mesh's cells), a refined parent's read as they are.
      // A finest grid kept by parent: its nodes derived, its parents split below (by_parent)
      // or by the processes that hold them (split_finest_cells).
      const bool kept_by_parent = l + 1 == levels && finest != FinestCells::stored;
      const mesh::RefinedCells made = kept_by_parent ? mesh::RefinedCells::deferred : mesh::RefinedCells::stored;
      const mesh::RefinedNodes nodes_made = kept_by_parent ? mesh::RefinedNodes::omitted : mesh::RefinedNodes::stored;
      mesh::CornerMesh fine = parent.corners.empty()
                                  ? mesh::refine_uniform_corners(parent.mesh.nodes, mesh::cell_corners(parent.mesh), name,
                                                                 &g.midpoint_of, made, nodes_made)
                                  : mesh::refine_uniform_corners(parent.mesh.nodes, parent.corners, name, &g.midpoint_of,
                                                                 made, nodes_made);
      g.mesh.nodes = std::move(fine.nodes);
      g.corners = std::move(fine.cells);
      g.nodes_derived = kept_by_parent;
      if (kept_by_parent) g.splits.reset(parent.cell_count());  // none held or split yet
      boundary = refine_boundary(boundary, g);
      g.dirichlet = nodes_of(boundary, g.node_count());
    } else {
      g.mesh = mesh::refine_uniform(parent.mesh, name, mesh::RefinedGeometry::omitted, &g.midpoint_of);
      g.dirichlet = boundary_nodes(g.mesh);
    }
    g.refined = true;  // its stencils and parents derived (Grid::stencil, Grid::parent), not stored
    grids.push_back(std::move(g));
  }
  if (finest == FinestCells::by_parent) split_parents(grids, [](std::size_t) { return true; }, name);
  return grids;
}

void split_finest_cells(std::vector<Grid>& grids, const std::vector<std::int32_t>& coarser_parts, int me,
                        const std::string& name) {
  if (grids.size() < 2 || !grids.back().cells_by_parent()) return;
  if (coarser_parts.size() != grids[grids.size() - 2].cell_count())
    throw std::logic_error("split_finest_cells: the parts are not the coarser grid's");
  split_parents(grids, [&](std::size_t q) { return coarser_parts[q] == me; }, name);
}

void store_finest_cells(std::vector<Grid>& grids, const std::string& name) {
  Grid& fine = grids.back();
  if (grids.size() < 2 || !fine.cells_by_parent()) return;
  const Grid& coarse = grids[grids.size() - 2];
  split_parents(grids, [](std::size_t) { return true; }, name);  // those not split yet
  std::vector<std::array<Index, 4>> cells;
  instrument::reserve_huge(cells, fine.cell_count());
  for (std::size_t q = 0; q < coarse.cell_count(); ++q)
    for (const std::array<Index, 4>& kid : fine.children(coarse, static_cast<Index>(q))) cells.push_back(kid);
  if (fine.nodes_derived) {  // METIS reads the grid as a mesh: its points made
    const NodePoints points(fine, &coarse);
    std::vector<mesh::Vec3> nodes;
    instrument::reserve_huge(nodes, fine.node_count());
    for (Index n = 0; n < fine.node_count(); ++n) nodes.push_back(points[n]);
    fine.mesh.nodes = std::move(nodes);
    fine.nodes_derived = false;
  }
  fine.corners = std::move(cells);
  fine.splits = {};
}

namespace {

// How far outside the coarser grid (in barycentric terms of its nearest cell) a fine node may
// lie and still count as on its domain: a curved boundary meshed at two sizes differs by a
// fraction of a cell; another domain differs by far more.
constexpr double kNestTolerance = 0.5;

std::string point_text(const mesh::Vec3& p) {
  std::ostringstream s;
  s << std::setprecision(6) << "(" << p.x << ", " << p.y << ", " << p.z << ")";
  return s.str();
}

// Linear interpolation at p from the located cell: its corners with positive weight,
// renormalised (for a point just outside, the negative weights are dropped).
CoarseStencil stencil_at(const mesh::Mesh& coarse, const mesh::Location& at) {
  CoarseStencil s;
  double sum = 0;
  for (std::size_t k = 0; k < 4; ++k)
    if (at.weight[k] > 0) sum += at.weight[k];
  for (std::size_t k = 0; k < 4; ++k)
    if (at.weight[k] > 0) {
      s.node[s.count] = coarse.cells[at.cell].nodes[k];
      s.weight[s.count] = at.weight[k] / sum;
      ++s.count;
    }
  return s;
}

}  // namespace

std::vector<mesh::Mesh> read_checked_meshes(const std::vector<std::string>& paths) {
  std::vector<mesh::Mesh> meshes;
  for (const std::string& path : paths) {
    meshes.push_back(mesh::read_mesh(path));
    check_nodes(meshes.back(), path);
  }
  return meshes;
}

std::vector<Grid> build_sequence(std::vector<mesh::Mesh> meshes, const std::vector<std::string>& names) {
  std::vector<Grid> grids;
  grids.reserve(meshes.size());
  for (mesh::Mesh& m : meshes) {
    Grid g;
    g.dirichlet = boundary_nodes(m);
    g.mesh = std::move(m);
    grids.push_back(std::move(g));
  }
  for (std::size_t l = 1; l < grids.size(); ++l) {
    const mesh::Mesh &coarse = grids[l - 1].mesh, &fine = grids[l].mesh;
    Grid& g = grids[l];
    if (fine.cells.size() <= coarse.cells.size())
      throw instrument::InputError(names[l], "cells", "more cells than the coarser grid before it in the sequence (" +
                                                          std::to_string(coarse.cells.size()) + ", " + names[l - 1] +
                                                          "; coarsest first), got " + std::to_string(fine.cells.size()));
    const mesh::CellLocator in_coarse(coarse);
    g.from_coarse.resize(fine.nodes.size());
    for (std::size_t n = 0; n < fine.nodes.size(); ++n) {
      const mesh::Location at = in_coarse.locate(fine.nodes[n]);
      if (at.worst < -kNestTolerance)
        throw instrument::InputError(names[l], "node " + std::to_string(n),
                                     "a point on the domain of the coarser grid " + names[l - 1] +
                                         " (the grids must nest); this one, at " + point_text(fine.nodes[n]) +
                                         ", is outside it");
      g.from_coarse[n] = stencil_at(coarse, at);
    }
    g.parent_of.resize(fine.cells.size());
    std::vector<std::uint8_t> has_child(coarse.cells.size(), 0);
    for (std::size_t c = 0; c < fine.cells.size(); ++c) {
      const mesh::Location at = in_coarse.locate(mesh::cell_centroid(fine, static_cast<Index>(c)));
      if (at.cell == mesh::kBoundary)
        throw instrument::InputError(names[l], "cell " + std::to_string(c),
                                     "a cell on the domain of the coarser grid " + names[l - 1] +
                                         " (the grids must nest); its centroid is far from every cell of it");
      g.parent_of[c] = at.cell;
      has_child[at.cell] = 1;
    }
    if (std::find(has_child.begin(), has_child.end(), 0) != has_child.end()) {
      const mesh::CellLocator in_fine(fine);
      g.stand_in.resize(coarse.cells.size());
      for (std::size_t c = 0; c < coarse.cells.size(); ++c)
        if (!has_child[c]) {
          const mesh::Location at = in_fine.locate(mesh::cell_centroid(coarse, static_cast<Index>(c)));
          if (at.cell == mesh::kBoundary)
            throw instrument::InputError(names[l - 1], "cell " + std::to_string(c),
                                         "a cell on the domain of the finer grid " + names[l] +
                                             " (the grids must nest); its centroid is far from every cell of it");
          g.stand_in[c] = at.cell;
        }
    }
  }
  return grids;
}

}  // namespace mg
