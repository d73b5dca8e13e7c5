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

#include "instrument/huge_pages.hpp"
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

// The splits of a finest grid's parents (Grid::splits): per parent q its edges' midpoints and
// its octahedron's diagonal (mesh::ParentSplitter's, 25 B for 8 cells), kept only for the
// parents this process holds, packed in q's order: a process of P keeps about a P-th, where a
// place for every parent (4.7 MB at --cube 8, written by every process) was as large as any
// array the refinement wrote. A parent's place is found from a bit per parent and a count per
// 64 of them (1.5 bits a parent, in every process).
class ParentSplits {
 public:
  static constexpr std::uint8_t kNotSplit = 0xFF;
  // `parents` parents, none held (FinestCells::by_parent_deferred until hold()).
  void reset(std::size_t parents) {
    *this = ParentSplits();
    parents_ = parents;
  }
  // Holds, besides those held already, every parent q with mine(q), each without a split
  // until mesh::ParentSplitter writes one into midpoints(q) and diagonal(q) (split_finest_cells);
  // the splits made so far are kept.
  template <class Mine>
  void hold(const Mine& mine) {
    ParentSplits wider;
    wider.parents_ = parents_;
    wider.bits_.assign((parents_ + 63) / 64, 0);
    wider.before_.assign(wider.bits_.size(), 0);
    std::size_t count = 0;
    for (std::size_t q = 0; q < parents_; ++q)
      if (held(static_cast<Index>(q)) || mine(q)) wider.bits_[q / 64] |= std::uint64_t{1} << (q % 64), ++count;
    for (std::size_t w = 1; w < wider.bits_.size(); ++w)
      wider.before_[w] = wider.before_[w - 1] + static_cast<std::uint32_t>(__builtin_popcountll(wider.bits_[w - 1]));
    instrument::assign_huge(wider.midpoints_, count);
    instrument::assign_huge(wider.diagonals_, count, kNotSplit);
    for (std::size_t q = 0; q < parents_; ++q)
      if (held(static_cast<Index>(q))) {
        wider.midpoints_[wider.place(static_cast<Index>(q))] = midpoints_[place(static_cast<Index>(q))];
        wider.diagonals_[wider.place(static_cast<Index>(q))] = diagonals_[place(static_cast<Index>(q))];
      }
    *this = std::move(wider);
  }

  std::size_t parents() const { return parents_; }
  bool held(Index q) const { return q < parents_ && !bits_.empty() && (bits_[q / 64] >> (q % 64) & 1u); }
  bool has_split(Index q) const { return held(q) && diagonals_[place(q)] != kNotSplit; }
  // Parent q's midpoints and diagonal: a held parent's (std::logic_error for another).
  const std::array<Index, 6>& midpoints(Index q) const { return midpoints_[checked_place(q)]; }
  std::array<Index, 6>& midpoints(Index q) { return midpoints_[checked_place(q)]; }
  std::uint8_t diagonal(Index q) const { return diagonals_[checked_place(q)]; }
  std::uint8_t& diagonal(Index q) { return diagonals_[checked_place(q)]; }
  // Asks for the lines of held parent q's split ahead of its reads.
  void prefetch(Index q) const {
    const std::size_t at = place(q);
    __builtin_prefetch(&midpoints_[at]);
    __builtin_prefetch(&diagonals_[at]);
  }
  // Every diagonal held, in q's order (tests).
  const std::vector<std::uint8_t>& diagonals() const { return diagonals_; }

 private:
  std::size_t place(Index q) const {
    const std::uint64_t below = bits_[q / 64] & ((std::uint64_t{1} << (q % 64)) - 1);
    return before_[q / 64] + static_cast<std::size_t>(__builtin_popcountll(below));
  }
  std::size_t checked_place(Index q) const {
    if (!held(q)) throw std::logic_error("ParentSplits: a parent this process does not hold (split_finest_cells)");
    return place(q);
  }
  std::size_t parents_ = 0;
  std::vector<std::uint64_t> bits_;    // bit q % 64 of word q / 64: parent q held
  std::vector<std::uint32_t> before_;  // the parents held in the words before
  std::vector<std::array<Index, 6>> midpoints_;
  std::vector<std::uint8_t> diagonals_;
};

struct Grid {
  // Its nodes (unless derived: below), its cells (and faces) unless `corners` or the parents
  // hold them.
  mesh::Mesh mesh;
  // A refined grid's cells' corners where its mesh has no cells (GridFaces::omitted): 16 B a
  // cell, where a mesh::Cell is 36, and the cells are most of what a set-up writes. Empty
  // otherwise. Read both kinds through cell_count() and cell(); a finest grid that keeps its
  // cells by parent (splits, below) through cell_count() and children().
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
  // every process wrote all of it to read its own share), but its parents' splits (per
  // coarser cell q its edges' midpoints and its octahedron's diagonal), from which children()
  // gives its 8 as the refinement made them. No parents on every other grid.
  // FinestCells::by_parent_deferred: a parent's split is made and kept by the process that
  // holds it (split_finest_cells); children() refuses the others.
  ParentSplits splits;

  bool cells_by_parent() const { return splits.parents() > 0; }
  // Parent q's diagonal on a grid kept by parent; std::logic_error for one not split yet
  // (another process's: children() and the numbering read only their own).
  int split_diagonal(Index q) const {
    if (!splits.has_split(q)) throw std::logic_error("Grid: a parent of the finest grid not split (split_finest_cells)");
    return splits.diagonal(q);
  }
  std::size_t cell_count() const {
    if (cells_by_parent()) return 8 * splits.parents();
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
      const int diagonal = split_diagonal(q);
      const std::array<mesh::CellNodes, 8> made = mesh::refined_children(coarser.cell(q), splits.midpoints(q), diagonal);
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
// kept by parent (Grid::splits), for a run whose METIS grid is a coarser one, each
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
