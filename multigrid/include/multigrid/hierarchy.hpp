// The grids of the multigrid cycle. By default a coarse tetrahedral mesh and its uniform
// refinements (mesh::refine_uniform: every cell into eight, children 8c..8c+7 of parent c;
// the fine nodes are the coarse nodes, then one midpoint per coarse edge in sorted-edge
// order). So the grids nest, r = 1/8 exactly, and the transfers are exact: a fine node is a
// coarse node or the midpoint of a coarse edge, and linear interpolation is the average of
// its ends. Or a sequence of independent meshes of one domain, coarsest first (the paper's
// setting): each fine node interpolates from the corners of the coarse cell it lies in,
// found by point location, and a fine cell's "parent" is the coarse cell its centroid lies in.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "mesh/mesh.hpp"
#include "mesh/refine.hpp"

namespace mg {

using mesh::Index;

// A fine node's linear interpolation from the next coarser grid: sum over k < count of
// weight[k] x (coarse node[k]). The weights are positive and sum to 1.
struct CoarseStencil {
  std::array<Index, 4> node{};
  std::array<double, 4> weight{};
  std::uint32_t count = 0;
};

struct Grid {
  // Its nodes (unless derived: below), its cells (and faces) unless `corners` or the parents
  // hold them.
  mesh::Mesh mesh;
  // A refined grid's cells' corners where its mesh has no cells (GridFaces::omitted): 16 B a
  // cell, where a mesh::Cell is 36, and the cells are most of what a set-up writes. Empty
  // otherwise. Read both kinds through cell_count() and cell(); a finest grid that keeps its
  // cells by parent (parent_midpoints, below) through cell_count() and children().
  std::vector<std::array<Index, 4>> corners;
  // Per node: 1 if it is on the boundary (a node of a boundary face): Dirichlet.
  std::vector<std::uint8_t> dirichlet;
  // Below, empty on the coarsest grid, and on a refined grid, where stencil() and parent()
  // derive them (a stored copy would be 56 B a node and 4 B a cell of fresh memory, written
  // by every process: most of a set-up's time on a guest whose first touches are dear).
  std::vector<CoarseStencil> from_coarse;  // per node (a sequence's grid)
  std::vector<Index> parent_of;            // per cell: the coarser cell it lies in (a sequence's grid)
  // Per coarser cell with no cell of this grid whose parent it is (only in a sequence): the
  // cell of this grid at its centroid, whose part it takes. Empty if every one has children.
  std::vector<Index> stand_in;
  // A uniform refinement of the coarser grid (build_hierarchy), not an independent mesh:
  // fine node j >= coarse_nodes is the midpoint of the coarse edge
  // midpoint_of[j - coarse_nodes] = (low, high), and cells 8c..8c+7 are coarse cell c's children.
  bool refined = false;
  std::size_t coarse_nodes = 0;
  std::vector<std::array<Index, 2>> midpoint_of;
  // A refined grid whose nodes' points are not stored (mesh.nodes empty; the finest grid of a
  // run whose cells are kept by parent): node n's point is the coarser grid's node n or the
  // midpoint of its edge midpoint_of[n - coarse_nodes], made as the refinement makes it
  // (mesh::refined_midpoint, the same bits) where it is read (NodePoints). They were 24 B a
  // node every process wrote whole, for the few it reads.
  bool nodes_derived = false;
  std::size_t node_count() const { return nodes_derived ? coarse_nodes + midpoint_of.size() : mesh.nodes.size(); }

  // Node n's interpolation from the next coarser grid: on a refined grid the coarse node n
  // itself (weight 1) or its edge's two ends (1/2 each); else from_coarse[n]. Not on the
  // coarsest grid (it has none); parent() likewise.
  CoarseStencil stencil(Index n) const {
    if (!refined) return from_coarse[n];
    if (n < coarse_nodes) return {{n}, {1.0}, 1};
    const std::array<Index, 2>& edge = midpoint_of[n - coarse_nodes];
    return {{edge[0], edge[1]}, {0.5, 0.5}, 2};
  }
  // The coarser cell cell c lies in: c / 8 on a refined grid, else parent_of[c].
  Index parent(Index c) const { return refined ? c / 8 : parent_of[c]; }

  // The finest grid of a run whose parts come from a coarser grid (FinestCells::by_parent):
  // its cells are not stored (16 B a cell, the largest array a set-up wrote, and at P > 1
  // every process wrote all of it to read its own share), but per coarser cell q its edges'
  // midpoints and its octahedron's diagonal (mesh::ParentSplitter's splits, 25 B for 8 cells),
  // from which children() gives its 8 as the refinement made them. Empty on every other grid.
  // FinestCells::by_parent_deferred: a parent's split is made by the process that holds it
  // (split_finest_cells); until then its diagonal is kNotSplit and children() refuses it.
  std::vector<std::array<Index, 6>> parent_midpoints;
  std::vector<std::uint8_t> parent_diagonals;
  static constexpr std::uint8_t kNotSplit = 0xFF;

  bool cells_by_parent() const { return !parent_midpoints.empty(); }
  // Parent q's diagonal on a grid kept by parent; std::logic_error for one not split yet
  // (another process's: children() and the numbering read only their own).
  int split_diagonal(Index q) const {
    if (parent_diagonals[q] == kNotSplit) throw std::logic_error("Grid: a parent of the finest grid not split (split_finest_cells)");
    return parent_diagonals[q];
  }
  std::size_t cell_count() const {
    if (cells_by_parent()) return 8 * parent_midpoints.size();
    return corners.empty() ? mesh.cells.size() : corners.size();
  }
  // Cell c's four nodes, in the mesh's (or the refinement's) corner order. Not on a grid whose
  // cells are kept by parent (children() is its way to its cells).
  const std::array<Index, 4>& cell(std::size_t c) const { return corners.empty() ? mesh.cells[c].nodes : corners[c]; }
  // Cells 8q..8q+7 of a refined grid, the children of cell q of `coarser` (the grid below it),
  // stored or made from the parent's split.
  std::array<std::array<Index, 4>, 8> children(const Grid& coarser, Index q) const {
    std::array<std::array<Index, 4>, 8> kids;
    if (cells_by_parent()) {
      const std::array<mesh::CellNodes, 8> made = mesh::refined_children(coarser.cell(q), parent_midpoints[q], split_diagonal(q));
      for (std::size_t k = 0; k < 8; ++k) kids[k] = made[k].nodes;
    } else {
      for (std::size_t k = 0; k < 8; ++k) kids[k] = cell(8 * std::size_t{q} + k);
    }
    return kids;
  }
};

// The points of a grid's nodes, stored or derived (Grid::nodes_derived). `coarser`: the grid
// it refines (read only where the grid's nodes are derived; may be null where they are not).
// Both are read where they are.
class NodePoints {
 public:
  NodePoints(const Grid& grid, const Grid* coarser) : grid_(grid), coarser_(coarser) {
    if (grid.nodes_derived && (!coarser || !grid.refined || coarser->mesh.nodes.size() != grid.coarse_nodes))
      throw std::logic_error("NodePoints: a grid's derived nodes without the grid it refines");
  }
  NodePoints(Grid&&, const Grid*) = delete;  // not of a temporary: read where it is
  mesh::Vec3 operator[](Index n) const {
    if (!grid_.nodes_derived) return grid_.mesh.nodes[n];
    const std::vector<mesh::Vec3>& coarse = coarser_->mesh.nodes;
    if (n < grid_.coarse_nodes) return coarse[n];
    const std::array<Index, 2>& edge = grid_.midpoint_of[n - grid_.coarse_nodes];
    return mesh::refined_midpoint(coarse[edge[0]], coarse[edge[1]]);
  }
  // The first read for node n's point (a derived midpoint's: its edge), for a prefetch ahead
  // of operator[].
  const void* address(Index n) const {
    if (!grid_.nodes_derived) return &grid_.mesh.nodes[n];
    return n < grid_.coarse_nodes ? static_cast<const void*>(&coarser_->mesh.nodes[n])
                                  : static_cast<const void*>(&grid_.midpoint_of[n - grid_.coarse_nodes]);
  }
  std::size_t size() const { return grid_.node_count(); }

 private:
  const Grid& grid_;
  const Grid* coarser_;
};

// The midpoint node of a coarse edge on a refined grid (Grid::midpoint_of is sorted by
// (low, high)): node(a, b) for an edge (a, b) of the coarser grid, either way round.
class MidpointLookup {
 public:
  explicit MidpointLookup(const Grid& refined) : coarse_nodes_(refined.coarse_nodes), ranks_(refined.midpoint_of, coarse_nodes_) {}
  Index node(Index a, Index b) const {
    return static_cast<Index>(coarse_nodes_ + ranks_.rank(std::min(a, b), std::max(a, b)));
  }

 private:
  std::size_t coarse_nodes_;
  mesh::SortedEdgeRanks ranks_;
};

// Refuses a coarse mesh with a node in no cell (a dangling node: it would be a free unknown
// with no equation) or two nodes at one point (a crack: both sides would be boundary):
// InputError(name, "node N", ...).
void check_nodes(const mesh::Mesh& mesh, const std::string& name);

// grids[0] is the coarsest, grids.back() the finest (the paper numbers them the other way:
// its grid i is grids[size - i]). `levels` >= 1 grids; the coarse mesh is checked already.
// Throws instrument::InputError(name, "refinement", ...) if a refined grid would not fit.
// The refined grids' meshes have no geometry (mesh.geometry empty; the coarsest keeps its own).
// With GridFaces::omitted they have no faces or cells either (mesh::refine_uniform_corners:
// the nodes and the cells' corners in Grid::corners, the same ones, two thirds of the
// refinement's time and 20 B a cell saved; the Dirichlet nodes found from the refined
// boundary triangles): what a run needs, since
// metis_partition_grid (grid_partition.hpp) finds the faces of a grid METIS partitions. A
// caller that takes a refined grid's mesh as a mesh (mesh::metis_partition, build_sequence)
// keeps them.
// FinestCells::by_parent (with GridFaces::omitted and levels >= 2): the finest grid's cells
// kept by parent (Grid::parent_midpoints), for a run whose METIS grid is a coarser one, each
// parent's children checked as it is split (after the refinement); its nodes derived
// (Grid::nodes_derived) in both by_parent kinds, which are the only grids whose nodes are.
// by_parent_deferred: the edges made (not the nodes' points), no parent split yet, for a
// partitioned run whose processes split (and check) their own (split_finest_cells:
// splitting every parent in every process was a replicated half of the refinement at P = 2).
enum class GridFaces { kept, omitted };
enum class FinestCells { stored, by_parent, by_parent_deferred };
// `coarse` is taken by value: a caller done with its mesh moves it in (a second copy of the
// coarsest mesh was a third of the peak at --cube 100 --grids 2).
std::vector<Grid> build_hierarchy(mesh::Mesh coarse, int levels, const std::string& name,
                                  GridFaces faces = GridFaces::kept, FinestCells finest = FinestCells::stored);

// Splits the parents q of a finest grid built with FinestCells::by_parent_deferred that have
// coarser_parts[q] == me and are not split yet (mesh::ParentSplitter: the splits by_parent
// makes), refusing a degenerate child with InputError(name, "cell N", "degenerate: ...") as
// the refinement would have. A run's processes together split and check every parent; each
// holds the splits of its own. Nothing to do on another grid.
void split_finest_cells(std::vector<Grid>& grids, const std::vector<std::int32_t>& coarser_parts, int me,
                        const std::string& name);
// Stores the cells and nodes of a finest grid built with FinestCells::by_parent or
// by_parent_deferred (where METIS is to partition it after all: a small mesh at many
// processes), every parent split and checked.
void store_finest_cells(std::vector<Grid>& grids, const std::string& name);

// Reads each path (mesh::read_mesh: .smesh or .msh) and checks its nodes (check_nodes).
std::vector<mesh::Mesh> read_checked_meshes(const std::vector<std::string>& paths);

// A sequence of independent meshes of one domain, coarsest first, each checked already
// (check_nodes). Throws instrument::InputError(names[l], "node N", ...) if a node of mesh l
// lies outside mesh l - 1 by more than half a cell (the grids do not nest: not one domain),
// and InputError(names[l], "cells", ...) if mesh l has no more cells than mesh l - 1. A node
// just outside (a curved boundary meshed twice) interpolates from the nearest cell with its
// negative weights dropped.
std::vector<Grid> build_sequence(std::vector<mesh::Mesh> meshes, const std::vector<std::string>& names);

}  // namespace mg
