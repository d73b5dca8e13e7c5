// Uniform refinement (refine.hpp): midpoints numbered from the sorted edge list, then each
// cell replaced by its eight children, whose faces pair up as the parent's do
// (refined_side_pairs) and are numbered as mesh_from_cells numbers them.
#include "mesh/refine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "instrument/error.hpp"
#include "instrument/huge_pages.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"

namespace mesh {

namespace {

// The mesh's edges, sorted by (low, high) node and unique, grouped by the low node: node a's
// are (a, high[first[a]]), (a, high[first[a] + 1]), ... below first[a + 1]. A counting sort
// by the low node and a small sort per node, not one sort of every cell's six edges.
struct EdgesByLow {
  std::vector<std::size_t> first;
  std::vector<Index> high;
  // The position of edge (a, b), a < b, in the sorted list: first[a] + the count of a's
  // high ends below b, counted without a branch (a node's few, not a binary search's
  // mispredicted steps).
  std::size_t rank(Index a, Index b) const {
    std::size_t below = 0;
    for (std::size_t k = first[a]; k < first[a + 1]; ++k) below += high[k] < b;
    return first[a] + below;
  }
};

// corners(c): cell c's four nodes, for c below `cells` (a Mesh's cells or bare corners).
template <class Corners>
EdgesByLow edges_by_low(std::size_t node_count, std::size_t cells, const Corners& corners) {
  EdgesByLow edges;
  std::vector<std::size_t> start(node_count + 1, 0);
  for (std::size_t c = 0; c < cells; ++c)
    for (const auto& e : kTetEdges) ++start[std::min(corners(c)[e[0]], corners(c)[e[1]]) + std::size_t{1}];
  for (std::size_t n = 0; n < node_count; ++n) start[n + 1] += start[n];
  std::vector<Index> high;
  instrument::assign_huge(high, start.back());
  {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t c = 0; c < cells; ++c)
      for (const auto& e : kTetEdges) {
        const Index a = corners(c)[e[0]], b = corners(c)[e[1]];
        high[fill[std::min(a, b)]++] = std::max(a, b);
      }
  }
  // Each node's distinct high ends, then sorted: an edge is met by each of its cells (5 on
  // average in a refined grid), so a sort of every meeting costs about 5 sorts of the few
  // distinct ends. seen[h] == n + 1: h already kept for low node n (an Index: a mesh holds
  // at most kMaxEntities < 2^32 - 1 nodes).
  static_assert(kMaxEntities < std::numeric_limits<Index>::max());
  edges.first.assign(node_count + 1, 0);
  std::vector<Index> seen(node_count, 0);
  std::size_t kept = 0;
  for (std::size_t n = 0; n < node_count; ++n) {
    edges.first[n] = kept;
    const std::size_t from = kept;
    const Index mark = static_cast<Index>(n + 1);
    for (std::size_t k = start[n]; k < start[n + 1]; ++k) {
      const Index h = high[k];
      if (seen[h] == mark) continue;
      seen[h] = mark;
      // Insertion into the kept run (a handful: a node's neighbours above it).
      std::size_t at = kept++;
      while (at > from && high[at - 1] > h) {
        high[at] = high[at - 1];
        --at;
      }
      high[at] = h;
    }
  }
  edges.first[node_count] = kept;
  high.resize(kept);
  edges.high = std::move(high);
  return edges;
}

EdgesByLow edges_by_low(const Mesh& mesh) {
  return edges_by_low(mesh.nodes.size(), mesh.cells.size(), [&mesh](std::size_t c) -> const std::array<Index, 4>& { return mesh.cells[c].nodes; });
}

// The edges as (low, high) pairs, in their sorted order.
std::vector<std::array<Index, 2>> edge_list(const EdgesByLow& edges) {
  std::vector<std::array<Index, 2>> list;
  instrument::reserve_huge(list, edges.high.size());
  for (std::size_t a = 0; a + 1 < edges.first.size(); ++a)
    for (std::size_t k = edges.first[a]; k < edges.first[a + 1]; ++k) list.push_back({static_cast<Index>(a), edges.high[k]});
  return list;
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

// The triangle of local face i of a cell (its other three nodes), sorted.
std::array<Index, 3> triangle(const CellNodes& cell, std::size_t i) {
  std::array<Index, 3> t;
  std::size_t k = 0;
  for (std::size_t j = 0; j < 4; ++j)
    if (j != i) t[k++] = cell.nodes[j];
  if (t[0] > t[1]) std::swap(t[0], t[1]);
  if (t[1] > t[2]) std::swap(t[1], t[2]);
  if (t[0] > t[1]) std::swap(t[0], t[1]);
  return t;
}

// How a parent's 32 child sides (4 k + l: local face l of child k) meet, for one choice of
// the octahedron's diagonal: 8 pairs inside the parent, and the 4 sides on each of its faces
// (face i opposite corner i). The same for every parent with that diagonal: worked out once
// on a parent of nodes 0..3 and midpoints 4..9.
struct ChildSidePattern {
  std::array<std::array<std::uint8_t, 2>, 8> inside;
  std::array<std::array<std::uint8_t, 4>, 4> on_face;
};

// The octahedron's three diagonals join midpoints of opposite edges: m01-m23, m02-m13,
// m03-m12 (as edges of kTetEdges).
constexpr int kDiagonalEnds[3][2] = {{0, 5}, {1, 4}, {2, 3}};

// The children of the parent of corners v and edge midpoints m[e] (of kTetEdges[e]): the 4
// corner tetrahedra, then the octahedron cut around diagonal `best`, material 0.
std::array<CellNodes, 8> children_of(const std::array<Index, 4>& v, const Index* m, int best) {
  const Index m01 = m[0], m02 = m[1], m03 = m[2], m12 = m[3], m13 = m[4], m23 = m[5];
  // Around each diagonal, the other four midpoints in ring order (consecutive ones share a
  // parent node).
  struct Diagonal {
    Index a, b;
    Index ring[4];
  };
  const Diagonal diagonals[3] = {{m01, m23, {m02, m03, m13, m12}},
                                 {m02, m13, {m01, m03, m23, m12}},
                                 {m03, m12, {m01, m02, m23, m13}}};
  const Diagonal& d = diagonals[best];
  std::array<CellNodes, 8> kids;
  kids[0] = {{v[0], m01, m02, m03}, 0};
  kids[1] = {{m01, v[1], m12, m13}, 0};
  kids[2] = {{m02, m12, v[2], m23}, 0};
  kids[3] = {{m03, m13, m23, v[3]}, 0};
  for (int k = 0; k < 4; ++k) kids[4 + static_cast<std::size_t>(k)] = {{d.a, d.b, d.ring[k], d.ring[(k + 1) % 4]}, 0};
  return kids;
}

ChildSidePattern side_pattern(int diagonal) {
  const std::array<Index, 4> v{0, 1, 2, 3};
  const Index m[6] = {4, 5, 6, 7, 8, 9};
  const std::array<CellNodes, 8> kids = children_of(v, m, diagonal);
  struct Side {
    std::array<Index, 3> key;
    std::uint8_t side;
  };
  std::array<Side, 32> sides;
  for (std::uint8_t s = 0; s < 32; ++s) sides[s] = {triangle(kids[s / 4u], s % 4u), s};
  std::sort(sides.begin(), sides.end(), [](const Side& a, const Side& b) { return a.key < b.key; });
  ChildSidePattern p{};
  std::size_t inside = 0;
  std::array<std::size_t, 4> count{};
  for (std::size_t a = 0; a < 32;) {
    if (a + 1 < 32 && sides[a].key == sides[a + 1].key) {
      p.inside[inside++] = {sides[a].side, sides[a + 1].side};
      a += 2;
      continue;
    }
    for (std::size_t i = 0; i < 4; ++i)  // on face i: not touching corner i
      if (std::find(sides[a].key.begin(), sides[a].key.end(), v[i]) == sides[a].key.end() &&
          std::none_of(sides[a].key.begin(), sides[a].key.end(), [&](Index x) {
            for (int e = 0; e < 6; ++e)
              if (m[e] == x && (kTetEdges[e][0] == static_cast<int>(i) || kTetEdges[e][1] == static_cast<int>(i))) return true;
            return false;
          }))
        p.on_face[i][count[i]++] = sides[a].side;
    ++a;
  }
  return p;
}

// The children's side pairs from the parent's faces, without a search over all sides: inside
// each parent by its diagonal's pattern, across each parent face by matching its 4 sides with
// the 4 of the parent across it (or the boundary). Empty if the parent's faces do not agree
// with its cells (then mesh_from_cells searches).
std::optional<SidePairs> refined_side_pairs(const Mesh& parent, const std::vector<CellNodes>& children) {
  static const std::array<ChildSidePattern, 3> patterns = {side_pattern(0), side_pattern(1), side_pattern(2)};
  const std::size_t n = parent.cells.size();
  SidePairs pairs;
  instrument::assign_huge(pairs.other_cell, 32 * n, kBoundary);
  instrument::assign_huge(pairs.other_local, 32 * n, std::uint8_t{0});
  const auto pair = [&pairs](std::size_t cell_a, std::size_t side_a, std::size_t cell_b, std::size_t side_b) {
    pairs.other_cell[4 * cell_a + side_a] = static_cast<Index>(cell_b);
    pairs.other_local[4 * cell_a + side_a] = static_cast<std::uint8_t>(side_b);
    pairs.other_cell[4 * cell_b + side_b] = static_cast<Index>(cell_a);
    pairs.other_local[4 * cell_b + side_b] = static_cast<std::uint8_t>(side_a);
  };
  // The diagonal of parent c: child 4 starts with it, its first end m01, m02 or m03 (child
  // 0's nodes 1..3).
  std::vector<std::uint8_t> diagonal(n);
  for (std::size_t c = 0; c < n; ++c) {
    const auto& v = parent.cells[c].nodes;
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = i + 1; j < 4; ++j)
        if (v[i] == v[j]) return std::nullopt;  // the patterns need distinct corners
    const Index a = children[8 * c + 4].nodes[0];
    const auto& corner0 = children[8 * c].nodes;
    const int d = a == corner0[1] ? 0 : a == corner0[2] ? 1 : 2;
    diagonal[c] = static_cast<std::uint8_t>(d);
    for (const auto& [x, y] : patterns[static_cast<std::size_t>(d)].inside) pair(8 * c + x / 4u, x % 4u, 8 * c + y / 4u, y % 4u);
  }
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t i = 0; i < 4; ++i) {
      const Index f = parent.cells[c].faces[i];
      const Face& face = parent.faces[f];
      if (face.cells[0] != c && face.cells[1] != c) return std::nullopt;
      if (face.on_boundary()) continue;  // its 4 child sides stay on the boundary
      const Index q = face.cells[0] == c ? face.cells[1] : face.cells[0];
      if (q == c) return std::nullopt;
      if (q < c) continue;  // paired from q's side
      std::size_t j = 0;
      while (j < 4 && parent.cells[q].faces[j] != f) ++j;
      if (j == 4) return std::nullopt;
      const auto& mine = patterns[diagonal[c]].on_face[i];
      const auto& theirs = patterns[diagonal[q]].on_face[j];
      std::array<std::array<Index, 3>, 4> their_keys;
      for (std::size_t b = 0; b < 4; ++b) their_keys[b] = triangle(children[8 * std::size_t{q} + theirs[b] / 4u], theirs[b] % 4u);
      for (std::uint8_t a : mine) {
        const std::array<Index, 3> key = triangle(children[8 * c + a / 4u], a % 4u);
        std::size_t b = 0;
        while (b < 4 && their_keys[b] != key) ++b;
        if (b == 4) return std::nullopt;
        pair(8 * c + a / 4u, a % 4u, 8 * std::size_t{q} + theirs[b] / 4u, theirs[b] % 4u);
      }
    }
  return pairs;
}

}  // namespace

namespace {

// Refinement's nodes: the parent's, then the midpoints in sorted-edge order (not made with
// RefinedNodes::omitted: `nodes` left empty). The parent: its nodes and corners(c) for each
// of its `cells` cells. Returns the edges.
template <class Corners>
EdgesByLow refine_nodes(const std::vector<Vec3>& parent_nodes, std::size_t cells, const Corners& corners,
                        const std::string& name, std::vector<Vec3>& nodes, RefinedNodes made = RefinedNodes::stored) {
  refuse_if_too_large(8 * std::uint64_t{cells}, "cells", name);
  EdgesByLow edges = edges_by_low(parent_nodes.size(), cells, corners);
  refuse_if_too_large(parent_nodes.size() + std::uint64_t{edges.high.size()}, "nodes", name);
  if (made == RefinedNodes::omitted) return edges;
  instrument::reserve_huge(nodes, parent_nodes.size() + edges.high.size());
  nodes.assign(parent_nodes.begin(), parent_nodes.end());
  for (std::size_t a = 0; a < parent_nodes.size(); ++a)
    for (std::size_t k = edges.first[a]; k < edges.first[a + 1]; ++k) {
      nodes.push_back(refined_midpoint(parent_nodes[a], parent_nodes[edges.high[k]]));
    }
  return edges;
}

// How parent `cell` splits: its edges' midpoints (m[e] of kTetEdges[e]: node
// parent_nodes.size() + the edge's rank) and its octahedron's shortest diagonal (see
// children_of; the first of equals), and the diagonal's ends' coordinates (from the parent's
// corners: refined_midpoint, without a read of the refined grid's nodes, a jump each into an
// array larger than the L2).
struct ParentSplit {
  std::array<Index, 6> m;
  int diagonal;
  Vec3 diagonal_ends[2];
};
// rank(a, b): the place of edge (a, b), a < b, in the parent's sorted edges (EdgesByLow::rank,
// or ParentSplitter's from the edge list); parent_nodes: its parent_count nodes.
template <class EdgeRank>
ParentSplit parent_split(const Vec3* parent_nodes, std::size_t parent_count, const EdgeRank& rank, const std::array<Index, 4>& cell) {
  ParentSplit split;
  for (std::size_t e = 0; e < 6; ++e) {
    const Index a = cell[static_cast<std::size_t>(kTetEdges[e][0])], b = cell[static_cast<std::size_t>(kTetEdges[e][1])];
    split.m[e] = static_cast<Index>(parent_count + (a < b ? rank(a, b) : rank(b, a)));
  }
  const auto end = [&](int e) {
    return refined_midpoint(parent_nodes[cell[static_cast<std::size_t>(kTetEdges[e][0])]],
                    parent_nodes[cell[static_cast<std::size_t>(kTetEdges[e][1])]]);
  };
  int best = 0;
  Vec3 best_a = end(kDiagonalEnds[0][0]), best_b = end(kDiagonalEnds[0][1]);
  double best_length = distance2(best_a, best_b);
  for (int d = 1; d < 3; ++d) {
    const Vec3 a = end(kDiagonalEnds[d][0]), b = end(kDiagonalEnds[d][1]);
    const double length = distance2(a, b);
    if (length < best_length) best = d, best_length = length, best_a = a, best_b = b;
  }
  split.diagonal = best;
  split.diagonal_ends[0] = best_a;
  split.diagonal_ends[1] = best_b;
  return split;
}

// Refinement's cells: store(c, split) receives parent c's split (its children: children_of
// with it, cells 8c..8c+7), for c = 0, 1, ... in turn (so a store may append them).
// `edges`: refine_nodes's, of the parent's nodes.
template <class Corners, class Store>
void refine_cells(const std::vector<Vec3>& parent_nodes, const EdgesByLow& edges, std::size_t cells,
                  const Corners& corners, Store store) {
  const auto rank = [&edges](Index a, Index b) { return edges.rank(a, b); };
  for (std::size_t c = 0; c < cells; ++c) store(c, parent_split(parent_nodes.data(), parent_nodes.size(), rank, corners(c)));
}

// Both, every parent's children made.
template <class Corners, class Store>
EdgesByLow refine_nodes_and_cells(const std::vector<Vec3>& parent_nodes, std::size_t cells, const Corners& corners,
                                  const std::string& name, std::vector<Vec3>& nodes, Store store) {
  EdgesByLow edges = refine_nodes(parent_nodes, cells, corners, name, nodes);
  refine_cells(parent_nodes, edges, cells, corners, store);
  return edges;
}

// check_refined_cells's test of a cell's shape (mesh_checks.cpp), for a cell without faces
// (a refined cell's corners are distinct: its parent's are, and the midpoints are new
// nodes): the same refusal.
// x[n]: node n's point (a vector of them, or FamilyPoints below).
template <class Points>
void check_refined_volume(const Points& x, const std::array<Index, 4>& v, std::size_t c, const std::string& name) {
  double longest_squared = 0;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j) longest_squared = std::max(longest_squared, distance2(x[v[i]], x[v[j]]));
  const double longest = std::sqrt(longest_squared);
  const double volume = std::abs(six_signed_volume(x[v[0]], x[v[1]], x[v[2]], x[v[3]])) / 6;
  if (!(volume > kDegenerateVolumeRatio * longest * longest * longest))
    throw instrument::InputError(name, "cell " + std::to_string(c),
                                 "degenerate: its volume " + std::to_string(volume) + " must exceed 1e-12 x (longest edge " +
                                     std::to_string(longest) + ")^3");
}

// Whether every child of the parent of corners v (their coordinates in x; its octahedron cut
// along the diagonal from diag_a to diag_b, those midpoints' coordinates) passes
// check_refined_volume, known from the parent alone: each child of
// Bey's refinement has an eighth of the parent's volume V, and its edges are halves of the
// parent's (longest L) or the diagonal D, so each passes if V/8 > 1e-12 max(L/2, D)^3. The
// test allows for the rounding of the midpoints (each coordinate within eta = eps X of the
// exact one, X the largest |coordinate| of the parent) and of both volumes and lengths, with
// room to spare: where it holds, every child's own check would pass, bit for bit; where it
// does not (a parent near degenerate, NaN or infinite coordinates), the children are checked
// one by one as before, so the same cell is refused with the same message. One check a parent
// in place of eight.
template <class Points>
bool children_shaped(const Points& x, const std::array<Index, 4>& v, const Vec3& diag_a, const Vec3& diag_b) {
  double longest_squared = 0, largest = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    largest = std::max({largest, std::abs(x[v[i]].x), std::abs(x[v[i]].y), std::abs(x[v[i]].z)});
    for (std::size_t j = i + 1; j < 4; ++j) longest_squared = std::max(longest_squared, distance2(x[v[i]], x[v[j]]));
  }
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double L = std::sqrt(longest_squared), eta = eps * largest;
  const double child_longest =
      (std::sqrt(std::max(0.25 * longest_squared, distance2(diag_a, diag_b))) + 4 * eta) * (1 + 1e-12);
  const double reach = L + 4 * eta;
  // The bounds below are relative; under gradual underflow rounding is absolute (a subnormal
  // quantum), so cells that small (edges below ~1e-90: cubes of them near the subnormals) take
  // the children's own checks.
  if (!(reach > 1e-90)) return false;
  // Bounds on 6 x the volume: the parent's rounding (on the eighth), the moved midpoints'
  // change of a child's, and a child's rounding.
  const double slack = 8 * eta * reach * reach + 64 * eps * reach * reach * reach;
  const double six_volume = std::abs(six_signed_volume(x[v[0]], x[v[1]], x[v[2]], x[v[3]]));
  return six_volume / 8 - slack > 6 * kDegenerateVolumeRatio * child_longest * child_longest * child_longest;
}

}  // namespace

Mesh refine_uniform(const Mesh& mesh, const std::string& name, RefinedGeometry geometry,
                    std::vector<std::array<Index, 2>>* midpoint_edges) {
  // Each face splits into 4; each cell adds 8 inside it (4 corner tets against the
  // octahedron, 4 around the octahedron's diagonal).
  refuse_if_too_large(8 * std::uint64_t{mesh.cells.size()}, "cells", name);
  refuse_if_too_large(4 * std::uint64_t{mesh.faces.size()} + 8 * std::uint64_t{mesh.cells.size()}, "faces", name);
  std::vector<Vec3> nodes;
  // Parent by parent (store's order): children 8c..8c+7 appended, not written over zeros.
  std::vector<CellNodes> children;
  instrument::reserve_huge(children, 8 * mesh.cells.size());
  const auto corners = [&mesh](std::size_t c) -> const std::array<Index, 4>& { return mesh.cells[c].nodes; };
  const EdgesByLow edges = refine_nodes_and_cells(mesh.nodes, mesh.cells.size(), corners, name, nodes,
                                                  [&](std::size_t c, const ParentSplit& split) {
    const std::array<CellNodes, 8> kids = children_of(mesh.cells[c].nodes, split.m.data(), split.diagonal);
    for (std::size_t k = 0; k < 8; ++k) children.push_back({kids[k].nodes, mesh.cells[c].material});
  });
  const std::optional<SidePairs> pairs = refined_side_pairs(mesh, children);
  Mesh fine = pairs ? mesh_from_side_pairs(std::move(nodes), children, *pairs)
                    : mesh_from_cells(std::move(nodes), children, name);
  // The parent's checked cells have distinct nodes, so its children do; faces paired from
  // the parent's leave only the children's shapes open (check_refined_cells).
  if (pairs) check_refined_cells(fine, name);
  else check_mesh_from_cells(fine, name);
  if (geometry == RefinedGeometry::computed) compute_geometry(fine);
  if (midpoint_edges) *midpoint_edges = edge_list(edges);
  return fine;
}

namespace {

// The check of parent c's children (of corners `parent`, split at `midpoints` along
// `diagonal`; diagonal_ends: those midpoints' coordinates): InputError(name, "cell 8c + k",
// "degenerate: ...") for the first degenerate one, as check_refined_cells refuses it.
// fine_nodes[n]: refined node n's point, for the parent's corners and midpoints.
template <class Points>
void check_children(const Points& fine_nodes, const std::array<Index, 4>& parent,
                    const std::array<Index, 6>& midpoints, int diagonal, const Vec3 (&diagonal_ends)[2], std::size_t c,
                    const std::string& name) {
  if (children_shaped(fine_nodes, parent, diagonal_ends[0], diagonal_ends[1])) return;
  const std::array<CellNodes, 8> kids = children_of(parent, midpoints.data(), diagonal);
  for (std::size_t k = 0; k < 8; ++k) check_refined_volume(fine_nodes, kids[k].nodes, 8 * c + k, name);
}

// refine_uniform_corners's store: the children appended parent by parent, or the parent's
// split (RefinedCells::by_parent), and checked as they come (the first degenerate one
// refused, as check_refined_cells refuses it: by the parent's check, from its diagonal's ends,
// where that suffices, else child by child), not copied from a list of children nor written
// over zeros.
struct KeepRefinedCells {
  const std::vector<Vec3>& nodes;
  const std::vector<std::array<Index, 4>>& parents;
  const std::string& name;
  CornerMesh& fine;
  RefinedCells kept;
  void operator()(std::size_t c, const ParentSplit& split) const {
    if (kept == RefinedCells::stored) {
      for (const CellNodes& kid : children_of(parents[c], split.m.data(), split.diagonal)) fine.cells.push_back(kid.nodes);
    } else {
      fine.midpoints.push_back(split.m);
      fine.diagonals.push_back(static_cast<std::uint8_t>(split.diagonal));
    }
    check_children(nodes, parents[c], split.m, split.diagonal, split.diagonal_ends, c, name);
  }
};

}  // namespace

CornerMesh refine_uniform_corners(const std::vector<Vec3>& nodes, const std::vector<std::array<Index, 4>>& cells,
                                  const std::string& name, std::vector<std::array<Index, 2>>* midpoint_edges,
                                  RefinedCells kept, RefinedNodes made) {
  if (made == RefinedNodes::omitted && (kept != RefinedCells::deferred || midpoint_edges == nullptr))
    throw std::logic_error("refine_uniform_corners: the nodes omitted where cells or splits are made (they check the children), "
                           "or without the edges that number them");
  refuse_if_too_large(8 * std::uint64_t{cells.size()}, "cells", name);  // before the cells are made
  CornerMesh fine;
  const auto corners = [&cells](std::size_t c) -> const std::array<Index, 4>& { return cells[c]; };
  const EdgesByLow edges = refine_nodes(nodes, cells.size(), corners, name, fine.nodes, made);
  if (kept == RefinedCells::by_parent) {
    instrument::reserve_huge(fine.midpoints, cells.size());
    instrument::reserve_huge(fine.diagonals, cells.size());
  } else if (kept == RefinedCells::stored) {
    instrument::reserve_huge(fine.cells, 8 * cells.size());
  }
  if (kept != RefinedCells::deferred)
    refine_cells(nodes, edges, cells.size(), corners, KeepRefinedCells{fine.nodes, cells, name, fine, kept});
  if (midpoint_edges) *midpoint_edges = edge_list(edges);
  return fine;
}

SortedEdgeRanks::SortedEdgeRanks(const std::vector<std::array<Index, 2>>& sorted_edges, std::size_t parent_count)
    : edges_(sorted_edges), first_(parent_count + 1, 0) {
  for (std::size_t k = 0; k < sorted_edges.size(); ++k) {
    const std::array<Index, 2>& e = sorted_edges[k];
    if (!(e[0] < e[1] && e[1] < parent_count) || (k > 0 && !(sorted_edges[k - 1] < e)))
      throw std::logic_error("SortedEdgeRanks: the edges are not sorted (low, high) pairs of the parent's nodes");
    ++first_[e[0] + std::size_t{1}];
  }
  for (std::size_t a = 0; a < parent_count; ++a) first_[a + 1] += first_[a];
}

namespace {

// The points of one parent's refined nodes, made from the parent's nodes as refine_nodes makes
// them: its corners (parent nodes) and its edges' midpoints (m[e] the node of edge
// kTetEdges[e]), all check_children reads.
class FamilyPoints {
 public:
  FamilyPoints(const std::vector<Vec3>& parent_nodes, const std::array<Index, 4>& corners, const std::array<Index, 6>& m)
      : parent_nodes_(parent_nodes), corners_(corners), m_(m) {}
  Vec3 operator[](Index n) const {
    if (n < parent_nodes_.size()) return parent_nodes_[n];
    for (std::size_t e = 0; e < 6; ++e)
      if (m_[e] == n)
        return refined_midpoint(parent_nodes_[corners_[static_cast<std::size_t>(kTetEdges[e][0])]],
                                parent_nodes_[corners_[static_cast<std::size_t>(kTetEdges[e][1])]]);
    throw std::logic_error("FamilyPoints: a node neither a corner nor a midpoint of the parent");
  }

 private:
  const std::vector<Vec3>& parent_nodes_;
  const std::array<Index, 4>& corners_;
  const std::array<Index, 6>& m_;
};

}  // namespace

ParentSplitter::ParentSplitter(const std::vector<Vec3>& parent_nodes, const std::vector<std::array<Index, 2>>& sorted_edges)
    : parent_nodes_(parent_nodes), edges_(sorted_edges), ranks_(sorted_edges, parent_nodes.size()) {}

void ParentSplitter::split(const std::array<Index, 4>& parent, std::size_t c, const std::string& name,
                           std::array<Index, 6>& midpoints, std::uint8_t& diagonal) const {
  const auto rank = [this](Index a, Index b) { return ranks_.rank(a, b); };
  const std::size_t parent_count = parent_nodes_.size();
  for (Index v : parent)
    if (v >= parent_count) throw std::logic_error("ParentSplitter::split: a corner that is not a parent node");
  const ParentSplit s = parent_split(parent_nodes_.data(), parent_count, rank, parent);
  for (std::size_t e = 0; e < 6; ++e) {  // each midpoint's edge is the one asked for: edges of this mesh
    const Index a = parent[static_cast<std::size_t>(kTetEdges[e][0])], b = parent[static_cast<std::size_t>(kTetEdges[e][1])];
    const std::size_t k = s.m[e] - parent_count;
    // Compared end by end: std::array's != calls memcmp, a third of the split's time.
    if (k >= edges_.size() || edges_[k][0] != std::min(a, b) || edges_[k][1] != std::max(a, b))
      throw std::logic_error("ParentSplitter::split: an edge of the parent not among the edges (another mesh's?)");
  }
  check_children(FamilyPoints(parent_nodes_, parent, s.m), parent, s.m, s.diagonal, s.diagonal_ends, c, name);
  midpoints = s.m;
  diagonal = static_cast<std::uint8_t>(s.diagonal);
}

std::vector<std::array<Index, 4>> cell_corners(const Mesh& mesh) {
  std::vector<std::array<Index, 4>> corners;
  instrument::reserve_huge(corners, mesh.cells.size());
  for (const Cell& c : mesh.cells) corners.push_back(c.nodes);
  return corners;
}

std::array<CellNodes, 8> refined_children(const std::array<Index, 4>& v, const std::array<Index, 6>& m, int diagonal) {
  return children_of(v, m.data(), diagonal);
}

std::vector<std::array<Index, 2>> sorted_edges(const Mesh& mesh) { return edge_list(edges_by_low(mesh)); }

}  // namespace mesh
