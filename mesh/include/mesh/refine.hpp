// Uniform refinement of a tetrahedral mesh: each cell into eight, so that the large meshes
// of the benchmarks come from small ones by a command (10717 -> 85736 -> 685888 cells).
//
// The split is Bey's regular refinement: the 4 corner tetrahedra (similar to the parent)
// and the inner octahedron cut into 4 along its shortest diagonal. Cutting along the
// shortest diagonal is what keeps the quality bounded over repeated levels (a fixed
// diagonal choice degrades it level after level).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mesh/mesh.hpp"
#include "mesh/mesh_from_cells.hpp"

namespace mesh {

// A cell's six edges as pairs of its local nodes: the order refine_uniform takes a cell's
// edges in, which multigrid's transfers and families rely on to find the children again.
inline constexpr int kTetEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

// The midpoint of nodes p and q as every refinement here makes it (the refined nodes, a
// parent's diagonal ends, a program that derives a refined grid's nodes instead of storing
// them): one expression, so the same bits wherever it is taken (a sum is the same either way
// round).
inline Vec3 refined_midpoint(const Vec3& p, const Vec3& q) {
  return {0.5 * (p.x + q.x), 0.5 * (p.y + q.y), 0.5 * (p.z + q.z)};
}

// The mesh with every cell split into eight, materials inherited; nodes: the parent's
// first, then one per edge (its midpoint) in the order of the sorted edge (low, high node).
// The result is checked (check_mesh, errors naming `name`) and has its geometry computed,
// unless `geometry` is omitted (mesh.geometry left empty: multigrid's grids need none, and
// it is 144 bytes a cell and a third of the refinement's time).
// Throws InputError if the refined mesh would exceed kMaxEntities cells, faces or nodes.
// `midpoint_edges`, if given, receives sorted_edges(mesh) (the edges it found anyway).
enum class RefinedGeometry { computed, omitted };
Mesh refine_uniform(const Mesh& mesh, const std::string& name, RefinedGeometry geometry = RefinedGeometry::computed,
                    std::vector<std::array<Index, 2>>* midpoint_edges = nullptr);

// A mesh as its nodes and its cells' corners only: 16 bytes a cell, where a Cell with its
// faces and material is 36. What a program that reads a refinement's cells alone keeps
// (multigrid's refined grids: the cells are most of the bytes a set-up writes).
struct CornerMesh {
  std::vector<Vec3> nodes;
  std::vector<std::array<Index, 4>> cells;
  std::vector<std::array<Index, 6>> midpoints;  // RefinedCells::by_parent only
  std::vector<std::uint8_t> diagonals;          // likewise
};

// The nodes and cells of refine_uniform on a mesh of these nodes and cells' corners (the same
// cells, corners in the same order, and nodes), without faces, materials or geometry: the
// faces are two thirds of the refinement's time, and a faceless result refines again the same
// way. Refuses what refine_uniform refuses (too large; a degenerate child: InputError(name,
// "cell N", ...)); the parent's cells are taken as checked (a mesh's, or an earlier result).
// RefinedCells::by_parent: cells left empty; instead, per parent c, its edges' midpoints
// (midpoints[c][e] of kTetEdges[e]) and its octahedron's diagonal (diagonals[c]), from which
// refined_children gives cells 8c..8c+7, the same corners: 25 bytes a parent where its
// children's corners are 128 (multigrid's finest grid, the largest array its set-up wrote).
// Every child is checked as it is made. (multigrid splits with ParentSplitter now; by_parent
// stays as the reference its tests check the splitter against.) RefinedCells::deferred:
// neither cells nor splits, the nodes and edges alone; the program splits the parents it will
// use (ParentSplitter: the same splits, the same refusal), where each process of a partitioned
// run needs only its own.
// RefinedNodes::omitted (with RefinedCells::deferred and midpoint_edges only; std::logic_error
// otherwise): the nodes' coordinates not made either (fine.nodes empty; there are nodes.size() +
// midpoint_edges->size() of them), for a program that derives a node's point from the
// parent's nodes and its edge (refined_midpoint) where it needs it: a finest grid's nodes are
// 24 B a node every process wrote whole.
enum class RefinedCells { stored, by_parent, deferred };
enum class RefinedNodes { stored, omitted };
CornerMesh refine_uniform_corners(const std::vector<Vec3>& nodes, const std::vector<std::array<Index, 4>>& cells,
                                  const std::string& name, std::vector<std::array<Index, 2>>* midpoint_edges = nullptr,
                                  RefinedCells kept = RefinedCells::stored, RefinedNodes made = RefinedNodes::stored);

// The places of a refinement's edges (its midpoint_edges: (low, high) node pairs of the
// parent's parent_count nodes, sorted and unique): rank(a, b), a < b, is edge (a, b)'s index,
// so its midpoint is refined node parent_count + rank(a, b). The edges are read where they are
// (kept by reference). std::logic_error if they are not such pairs.
class SortedEdgeRanks {
 public:
  SortedEdgeRanks(const std::vector<std::array<Index, 2>>& sorted_edges, std::size_t parent_count);
  SortedEdgeRanks(std::vector<std::array<Index, 2>>&&, std::size_t) = delete;
  // Node a's edges below (a, b): the whole run of a's few high ends counted without a branch.
  std::size_t rank(Index a, Index b) const {
    std::size_t below = 0;
    for (std::size_t k = first_[a]; k < first_[a + 1]; ++k) below += edges_[k][1] < b;
    return first_[a] + below;
  }

 private:
  const std::vector<std::array<Index, 2>>& edges_;
  std::vector<std::size_t> first_;  // node a's edges: [first_[a], first_[a + 1])
};

// The splits of a refinement's parents one at a time (RefinedCells::deferred): parent c's
// midpoints and diagonal as RefinedCells::by_parent gives them (midpoints[c], diagonals[c]),
// its children checked as it checks them. parent_nodes: the parent mesh's nodes (the
// midpoints' points are made from them as the refinement makes them: the refined nodes need
// not exist); sorted_edges: the refinement's midpoint_edges. Both are read where they are
// (kept by reference).
class ParentSplitter {
 public:
  // std::logic_error if the edges are not sorted (low, high) pairs of the parent's nodes.
  ParentSplitter(const std::vector<Vec3>& parent_nodes, const std::vector<std::array<Index, 2>>& sorted_edges);
  // Not of temporaries: both are read where they are.
  ParentSplitter(std::vector<Vec3>&&, const std::vector<std::array<Index, 2>>&) = delete;
  ParentSplitter(const std::vector<Vec3>&, std::vector<std::array<Index, 2>>&&) = delete;
  // Parent c, of corners `parent` (the parent's own, in its order, each a parent node):
  // InputError(name, "cell 8c + k", "degenerate: ...") for its first degenerate child, as the
  // refinement refuses it; std::logic_error for a corner out of range, or an edge of the
  // parent missing from the edges (not the parent mesh's: its midpoint's number would be wrong).
  void split(const std::array<Index, 4>& parent, std::size_t c, const std::string& name, std::array<Index, 6>& midpoints,
             std::uint8_t& diagonal) const;

 private:
  const std::vector<Vec3>& parent_nodes_;
  const std::vector<std::array<Index, 2>>& edges_;
  SortedEdgeRanks ranks_;
};

// The corners of each of the mesh's cells, in its order (what refine_uniform_corners reads).
std::vector<std::array<Index, 4>> cell_corners(const Mesh& mesh);

// The eight children refine_uniform makes of a cell of corners v, m[e] the midpoint of its
// edge kTetEdges[e], its octahedron cut along diagonal `diagonal` (0: m01-m23, 1: m02-m13,
// 2: m03-m12): the 4 corner tetrahedra, then the 4 around the diagonal; material 0. Cells
// 8c..8c+7 of refine_uniform(mesh) are these for cell c (its shortest diagonal).
std::array<CellNodes, 8> refined_children(const std::array<Index, 4>& v, const std::array<Index, 6>& m, int diagonal);

// The mesh's edges as (low, high) node, sorted and unique: edge k's midpoint is node
// mesh.nodes.size() + k of refine_uniform(mesh).
std::vector<std::array<Index, 2>> sorted_edges(const Mesh& mesh);

}  // namespace mesh
