// One process's levels (local_level.hpp).
#include "multigrid/local_level.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "p1_cell_math.hpp"
#include "instrument/huge_pages.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/morton.hpp"
#include "mesh/refine.hpp"

namespace mg {

namespace {

// 21 bits per axis of the centroid in the mesh's bounding box, interleaved.
std::uint64_t morton_key(const mesh::Vec3& p, const mesh::Vec3& lo, const mesh::Vec3& hi) {
  const auto scaled = [](double v, double a, double b) {
    const double t = b > a ? (v - a) / (b - a) : 0.0;
    return static_cast<std::uint64_t>(std::clamp(t, 0.0, 1.0) * 2097151.0);
  };
  // Bit b of an axis goes to bit 3 b + 2 - axis (x highest).
  const auto spread = mesh::morton_spread_bits;
  return spread(scaled(p.x, lo.x, hi.x)) << 2 | spread(scaled(p.y, lo.y, hi.y)) << 1 | spread(scaled(p.z, lo.z, hi.z));
}

void add_slot(LocalLevel& L, Index g) {
  L.slot_of[g] = static_cast<std::uint32_t>(L.node_global.size());
  L.node_global.push_back(g);
}

// Parent edge e joins corners kTetEdges[e]; kOpposite[d] are the edges whose midpoints the
// octahedron's diagonal d joins; kRelabel[d] orders the parent's corners so that diagonal
// d becomes m01-m23 (a swap of two corners, which keeps every midpoint a midpoint).
using mesh::kTetEdges;
constexpr Index kNone = std::numeric_limits<Index>::max();
constexpr int kOpposite[3][2] = {{0, 5}, {1, 4}, {2, 3}};
constexpr int kRelabel[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 2, 1}};

int edge_of(int a, int b) {
  for (int e = 0; e < 6; ++e)
    if ((kTetEdges[e][0] == a && kTetEdges[e][1] == b) || (kTetEdges[e][0] == b && kTetEdges[e][1] == a)) return e;
  return -1;
}

using ChildCorners = std::array<std::array<Index, 4>, 8>;

// The children are the table's (p1_cell_math.hpp), as sets of nodes (their corner order is
// free), the family's 10 distinct nodes being `out`: each child as the set of its nodes'
// places in `out`, a bit each.
bool children_match_table(const std::array<Index, 10>& out, const ChildCorners& kids) {
  std::array<std::uint16_t, 8> table{}, actual{};
  for (std::size_t j = 0; j < 8; ++j) {
    for (std::size_t k = 0; k < 4; ++k) table[j] = static_cast<std::uint16_t>(table[j] | 1u << detail::kFamilyChild[j][k]);
    for (Index g : kids[j]) {
      const auto at = std::find(out.begin(), out.end(), g);
      if (at == out.end()) return false;
      actual[j] = static_cast<std::uint16_t>(actual[j] | 1u << (at - out.begin()));
    }
  }
  std::sort(table.begin(), table.end());
  std::sort(actual.begin(), actual.end());
  return table == actual;
}

// The family's nodes in the table's order from the parent's corners a, its midpoints mid
// (mid[e] of kTetEdges[e]) and the octahedron's diagonal.
std::array<Index, 10> labelled(const std::array<Index, 4>& a, const std::array<Index, 6>& mid, int diagonal) {
  std::array<Index, 10> out;
  const int* r = kRelabel[diagonal];
  for (int k = 0; k < 4; ++k) out[static_cast<std::size_t>(k)] = a[static_cast<std::size_t>(r[k])];
  for (int e = 0; e < 6; ++e)
    out[static_cast<std::size_t>(4 + e)] = mid[static_cast<std::size_t>(edge_of(r[kTetEdges[e][0]], r[kTetEdges[e][1]]))];
  return out;
}

ChildCorners corners_of(const std::array<mesh::CellNodes, 8>& kids) {
  ChildCorners c;
  for (std::size_t j = 0; j < 8; ++j) c[j] = kids[j].nodes;
  return c;
}

// Whether refinement's children (mesh::refined_children) of each diagonal are the table's:
// worked out once on a parent of nodes 0..3 and midpoints 4..9. A family whose children are
// exactly refined_children's (checked node by node) is then the table's when its diagonal's is
// (the check depends on the nodes only through which are equal).
const std::array<bool, 3>& refined_children_match_table() {
  static const std::array<bool, 3> match = [] {
    const std::array<Index, 4> a = {0, 1, 2, 3};
    const std::array<Index, 6> mid = {4, 5, 6, 7, 8, 9};
    std::array<bool, 3> m{};
    for (int d = 0; d < 3; ++d)
      m[static_cast<std::size_t>(d)] = children_match_table(labelled(a, mid, d), corners_of(mesh::refined_children(a, mid, d)));
    return m;
  }();
  return match;
}

// The 10 nodes of parent p's family in p1_cell_math.hpp's order, or false if its 8 children
// `kids` (Grid::children) are not that pattern (then they are swept one by one, correct
// either way).
bool family_nodes(const Grid& fine, const Grid& coarse, Index p, const ChildCorners& kids, std::array<Index, 10>& out) {
  const auto& a = coarse.cell(p);
  // A grid kept by parent: its children are refined_children of the parent's midpoints and
  // diagonal (Grid::children), so the checks and the search below would find exactly those;
  // they cost 6 reads of midpoint_of a parent, a jump each, and the children made twice more.
  if (fine.cells_by_parent()) {
    const int diagonal = fine.split_diagonal(p);
    out = labelled(a, fine.splits.midpoints(p), diagonal);
    return refined_children_match_table()[static_cast<std::size_t>(diagonal)];
  }
  std::array<Index, 6> lo, hi;  // the parent's edges' ends, low and high
  for (std::size_t e = 0; e < 6; ++e) {
    lo[e] = std::min(a[kTetEdges[e][0]], a[kTetEdges[e][1]]);
    hi[e] = std::max(a[kTetEdges[e][0]], a[kTetEdges[e][1]]);
  }
  const auto is_midpoint = [&](Index g, std::size_t e) {
    if (g < fine.coarse_nodes) return false;
    const std::array<Index, 2>& ends = fine.midpoint_of[g - fine.coarse_nodes];
    return ends[0] == lo[e] && ends[1] == hi[e];
  };
  // Where refine_uniform puts them (children_of): m01, m02, m03 are child 0's nodes 1..3,
  // m12, m13 child 1's nodes 2, 3, m23 child 2's node 3, and child 4 starts with the
  // diagonal. Checked, and searched for if another refinement placed them elsewhere.
  const auto& kid = [&](Index k) -> const std::array<Index, 4>& { return kids[k]; };
  std::array<Index, 6> mid = {kid(0)[1], kid(0)[2], kid(0)[3], kid(1)[2], kid(1)[3], kid(2)[3]};
  bool placed = true;
  for (std::size_t e = 0; e < 6; ++e) placed = placed && is_midpoint(mid[e], e);
  if (!placed) {
    mid.fill(kNone);
    for (const std::array<Index, 4>& n : kids)
      for (Index g : n)
        for (std::size_t e = 0; e < 6; ++e)
          if (is_midpoint(g, e)) mid[e] = g;
    for (Index m : mid)
      if (m == kNone) return false;
  }
  int diagonal = -1;
  for (int d = 0; d < 3 && diagonal < 0; ++d)
    if (kid(4)[0] == mid[static_cast<std::size_t>(kOpposite[d][0])] && kid(4)[1] == mid[static_cast<std::size_t>(kOpposite[d][1])])
      diagonal = d;
  // refine_uniform's own children, node for node: the table's if their diagonal's are, no
  // search needed.
  if (placed && diagonal >= 0) {
    const std::array<mesh::CellNodes, 8> made = mesh::refined_children(a, mid, diagonal);
    bool same = true;
    for (Index k = 0; k < 8; ++k) same = same && made[k].nodes == kid(k);
    if (same) {
      out = labelled(a, mid, diagonal);
      return refined_children_match_table()[static_cast<std::size_t>(diagonal)];
    }
  }
  for (int d = 0; d < 3 && diagonal < 0; ++d)
    for (const std::array<Index, 4>& n : kids) {
      const auto has = [&](Index g) { return std::find(n.begin(), n.end(), g) != n.end(); };
      if (has(mid[static_cast<std::size_t>(kOpposite[d][0])]) && has(mid[static_cast<std::size_t>(kOpposite[d][1])])) diagonal = d;
    }
  if (diagonal < 0) return false;
  out = labelled(a, mid, diagonal);
  return children_match_table(out, kids);
}

// The parents are taken in Morton order, and their corners and children (or their splits,
// Grid::children) are stored in refinement order: each parent's reads are a jump into arrays
// larger than the L2, which the hardware prefetchers do not follow. Parent i +
// kPrefetchParents's are asked for while parent i is numbered; likewise the nodes' coordinates
// and holders, gathered in first-touch order. The numbering took 0.74-0.78 of its time without
// (multigrid_setup_bench at P = 1 and 2, BENCHMARKS.md).
constexpr std::size_t kPrefetchParents = 12, kPrefetchNodes = 16;
void prefetch_parent(const Grid& fine, const Grid& coarse, Index q) {
  __builtin_prefetch(&coarse.cell(q));
  if (fine.cells_by_parent()) {  // its children from the parent's corners and split
    if (fine.splits.held(q)) fine.splits.prefetch(q);
    return;
  }
  const char* kids = reinterpret_cast<const char*>(&fine.cell(8 * std::size_t{q}));
  __builtin_prefetch(kids);
  __builtin_prefetch(kids + 64);
}

using ChildSlots = std::array<std::array<std::uint32_t, 4>, 8>;

// A family of a grid kept by parent, for each diagonal, as places among the parent's 4
// corners and 6 midpoints (0-3, then 4-9 in kTetEdges' order): its children's corners
// (mesh::refined_children), its 10 nodes in the table's order (labelled) and the order in
// which walking the children corner by corner first meets them. The numbering gives the
// family's nodes their slots in that order, as it would walking the children it made, without
// making them (they were 0.04 of the set-up bench: refined_children and 32 slot lookups).
struct ParentLayout {
  std::array<std::array<std::uint8_t, 4>, 8> kid;
  std::array<std::uint8_t, 10> node, first_met;
};
const std::array<ParentLayout, 3>& parent_layouts() {
  static const std::array<ParentLayout, 3> layouts = [] {
    const std::array<Index, 4> a = {0, 1, 2, 3};
    const std::array<Index, 6> mid = {4, 5, 6, 7, 8, 9};
    std::array<ParentLayout, 3> out{};
    for (int d = 0; d < 3; ++d) {
      ParentLayout& p = out[static_cast<std::size_t>(d)];
      const std::array<mesh::CellNodes, 8> kids = mesh::refined_children(a, mid, d);
      std::array<bool, 10> met{};
      std::size_t n = 0;
      for (std::size_t j = 0; j < 8; ++j)
        for (std::size_t k = 0; k < 4; ++k) {
          const Index at = kids[j].nodes[k];
          p.kid[j][k] = static_cast<std::uint8_t>(at);
          if (!met[at]) met[at] = true, p.first_met[n++] = static_cast<std::uint8_t>(at);
        }
      if (n != 10) throw std::logic_error("parent_layouts: a family's children do not meet its 10 nodes");
      const std::array<Index, 10> labels = labelled(a, mid, d);
      for (std::size_t k = 0; k < 10; ++k) p.node[k] = static_cast<std::uint8_t>(labels[k]);
    }
    return out;
  }();
  return layouts;
}

// The level's family shapes (LocalLevel::shapes) as they are met: a family's is found by 32
// comparisons with the last one met, else with each known one (a refinement gives one a
// diagonal), else added. -1 if its corners are not its nodes or kMaxShapes are known (each
// new family would search them all): its cells are then swept one by one, correct either way.
class FamilyShapeTable {
 public:
  static constexpr std::size_t kMaxShapes = 64;
  explicit FamilyShapeTable(std::vector<CornerPlaces>& shapes) : shapes_(shapes) {}
  int of(const std::array<std::uint32_t, 10>& nodes, const ChildSlots& kids) {
    if (last_ >= 0 && holds(shapes_[static_cast<std::size_t>(last_)], nodes, kids)) return last_;
    for (std::size_t s = 0; s < shapes_.size(); ++s)
      if (holds(shapes_[s], nodes, kids)) return last_ = static_cast<int>(s);
    CornerPlaces p;
    for (std::size_t j = 0; j < 8; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        std::size_t at = 0;
        while (at < 10 && nodes[at] != kids[j][k]) ++at;
        if (at == 10) return -1;
        p[j][k] = static_cast<std::uint8_t>(at);
      }
    if (shapes_.size() == kMaxShapes) return -1;
    shapes_.push_back(p);
    return last_ = static_cast<int>(shapes_.size() - 1);
  }

 private:
  static bool holds(const CornerPlaces& p, const std::array<std::uint32_t, 10>& nodes, const ChildSlots& kids) {
    bool all = true;
    for (std::size_t j = 0; j < 8; ++j)
      for (std::size_t k = 0; k < 4; ++k) all = all && nodes[p[j][k]] == kids[j][k];
    return all;
  }
  std::vector<CornerPlaces>& shapes_;
  int last_ = -1;
};

// `coarser`: the grid `grid` refines, or null on the coarsest grid or an independent mesh (no
// families; cells in Morton order of their own centroids). `part`: the grid's cells' parts, or
// empty where they are kept by parent (parts_by_parent): then `coarser_part`, the parents'.
LocalLevel local_cells_and_nodes(const Grid& grid, const Grid* coarser, const std::vector<std::int32_t>& part,
                                 const std::vector<std::int32_t>& coarser_part, const NodeRanks& ranks, int me) {
  const NodePoints points(grid, coarser);  // the cells: grid.children of a parent, else grid.cell
  LocalLevel L;
  L.global_cells = grid.cell_count();
  L.global_nodes = points.size();
  // The box of the grid's points: a refinement's is its parent's (a midpoint's coordinates lie
  // between its ends', rounding included), the same bits from the stored points alone.
  mesh::Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (const mesh::Vec3& p : grid.nodes_derived ? coarser->mesh.nodes : grid.mesh.nodes) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  // Cells in the Morton order of the parent's centroid (the cell's own on the coarsest grid),
  // then by number: on a refined grid the parents are sorted (children share their parent's
  // key, and 8p..8p+7 follow one another), an eighth of the sort. Then the families' cells,
  // family by family, then the cells in none, in that order; nodes numbered by first touch
  // in it. A family's cells are numbered as it is found, its 10 nodes being its cells'
  // corners, so no list of cells or of families' global nodes is kept in between.
  // Arrays sized by the grid go on huge pages (instrument/huge_pages.hpp), reserved for what one
  // process can hold; it touches only its share.
  const bool by_parent = coarser && part.empty();
  const std::size_t my_cells = by_parent ? 8 * static_cast<std::size_t>(std::count(coarser_part.begin(), coarser_part.end(), me))
                                         : static_cast<std::size_t>(std::count(part.begin(), part.end(), me));
  instrument::assign_huge(L.slot_of, points.size(), kNoSlot);
  instrument::reserve_huge(L.node_global, std::min(points.size(), 4 * my_cells));
  // A cell's corners as slots, each node given one at its first touch.
  const auto cell_slots = [&L](const std::array<Index, 4>& cell) {
    std::array<std::uint32_t, 4> corners;
    for (std::size_t k = 0; k < 4; ++k) {
      const Index g = cell[k];
      if (L.slot_of[g] == kNoSlot) add_slot(L, g);
      corners[k] = L.slot_of[g];
    }
    return corners;
  };
  // My cells in no family of a refined grid (few: cut by a partition, or of a shape the table
  // has no room for), in order, given their slots after every family's.
  std::vector<std::array<Index, 4>> loose;
  if (coarser) {
    // Which of the parent's 8 children are mine (bit k: child 8q + k), found here in q's order:
    // read in the Morton order below, part[] would be a jump a parent.
    struct Parent {
      std::uint64_t key;
      Index q;
      std::uint32_t mine;
      bool operator<(const Parent& o) const { return key != o.key ? key < o.key : q < o.q; }
    };
    std::vector<Parent> parents;
    instrument::reserve_huge(parents, coarser->cell_count());
    for (std::size_t q = 0; q < coarser->cell_count(); ++q) {
      std::uint32_t mine = 0;
      if (by_parent) mine = coarser_part[q] == me ? 0xFFu : 0u;
      else
        for (std::size_t k = 0; k < 8; ++k) mine |= static_cast<std::uint32_t>(part[8 * q + k] == me) << k;
      if (mine) parents.push_back({morton_key(mesh::corners_centroid(coarser->mesh.nodes, coarser->cell(q)), lo, hi), static_cast<Index>(q), mine});
    }
    std::sort(parents.begin(), parents.end());
    instrument::reserve_huge(L.family_batches.batches, (parents.size() + kBatch - 1) / kBatch);
    instrument::reserve_huge(L.family_shape, parents.size());
    FamilyShapeTable shapes(L.shapes);
    std::array<int, 3> shape_of_diagonal = {-1, -1, -1};  // a kept-by-parent family's, once met
    const bool kept_by_parent = grid.cells_by_parent();
    for (std::size_t i = 0; i < parents.size(); ++i) {
      const Parent& parent = parents[i];
      if (i + kPrefetchParents < parents.size()) prefetch_parent(grid, *coarser, parents[i + kPrefetchParents].q);
      const Index q = parent.q;
      if (kept_by_parent && parent.mine == 0xFFu) {
        // The family's nodes from the parent's corners and midpoints (family_nodes' own
        // shortcut), slots given in the order its children would meet them; the shape of
        // its diagonal's, looked up in the table the first time (the same shape each time: the
        // same ids as the walk below).
        const int diagonal = grid.split_diagonal(q);
        const std::size_t d = static_cast<std::size_t>(diagonal);
        if (refined_children_match_table()[d]) {
          const ParentLayout& layout = parent_layouts()[d];
          const std::array<Index, 4>& a = coarser->cell(q);
          const std::array<Index, 6>& m = grid.splits.midpoints(q);
          const std::array<Index, 10> raw = {a[0], a[1], a[2], a[3], m[0], m[1], m[2], m[3], m[4], m[5]};
          for (std::uint8_t at : layout.first_met)
            if (L.slot_of[raw[at]] == kNoSlot) add_slot(L, raw[at]);
          std::array<std::uint32_t, 10> slots;
          for (std::size_t n = 0; n < 10; ++n) slots[n] = L.slot_of[raw[layout.node[n]]];
          int& shape = shape_of_diagonal[d];
          if (shape < 0) {
            ChildSlots kids;
            for (std::size_t j = 0; j < 8; ++j)
              for (std::size_t k = 0; k < 4; ++k) kids[j][k] = L.slot_of[raw[layout.kid[j][k]]];
            shape = shapes.of(slots, kids);
          }
          if (shape >= 0) {
            append_item(L.family_batches, slots);
            L.family_shape.push_back(static_cast<std::uint16_t>(shape));
            continue;
          }
          const ChildCorners cells = grid.children(*coarser, q);
          loose.insert(loose.end(), cells.begin(), cells.end());  // no shape left: correct either way
          continue;
        }
      }
      const ChildCorners cells = grid.children(*coarser, q);
      std::array<Index, 10> nodes;
      if (parent.mine == 0xFFu && family_nodes(grid, *coarser, q, cells, nodes)) {
        ChildSlots kids;
        for (std::size_t k = 0; k < 8; ++k) kids[k] = cell_slots(cells[k]);
        std::array<std::uint32_t, 10> slots;
        for (std::size_t n = 0; n < 10; ++n) slots[n] = L.slot_of[nodes[n]];
        const int shape = shapes.of(slots, kids);
        if (shape >= 0) {
          append_item(L.family_batches, slots);
          L.family_shape.push_back(static_cast<std::uint16_t>(shape));
          continue;
        }
        loose.insert(loose.end(), cells.begin(), cells.end());  // no shape left: correct either way
      } else {
        for (std::size_t k = 0; k < 8; ++k)
          if (parent.mine >> k & 1u) loose.push_back(cells[k]);
      }
    }
    fill_dead_lanes(L.family_batches);
  } else {
    std::vector<std::pair<std::uint64_t, Index>> keyed;
    instrument::reserve_huge(keyed, my_cells);
    for (std::size_t c = 0; c < grid.cell_count(); ++c)
      if (part[c] == me) keyed.push_back({morton_key(mesh::corners_centroid(grid.mesh.nodes, grid.cell(c)), lo, hi), static_cast<Index>(c)});
    std::sort(keyed.begin(), keyed.end());
    // No families here: every cell is loose, its slots given in this order.
    instrument::reserve_huge(L.loose_cells, keyed.size());
    for (const auto& [key, c] : keyed) L.loose_cells.push_back(cell_slots(grid.cell(c)));
  }
  if (!loose.empty()) {
    instrument::reserve_huge(L.loose_cells, loose.size());
    for (const std::array<Index, 4>& cell : loose) L.loose_cells.push_back(cell_slots(cell));
  }
  L.n_local = L.node_global.size();
  instrument::reserve_huge(L.xyz, L.n_local);
  instrument::reserve_huge(L.dirichlet, L.n_local);
  instrument::reserve_huge(L.owned, L.n_local);
  for (std::size_t s = 0; s < L.n_local; ++s) {
    const Index g = L.node_global[s];
    if (s + kPrefetchNodes < L.n_local) {  // the nodes in first-touch order are a jump each in the grid's
      const Index ahead = L.node_global[s + kPrefetchNodes];
      __builtin_prefetch(points.address(ahead));
      __builtin_prefetch(&ranks.offsets[ahead]);
    }
    const mesh::Vec3 p = points[g];
    L.xyz.push_back({p.x, p.y, p.z, 0.0});
    L.dirichlet.push_back(grid.dirichlet[g]);
    L.owned.push_back(ranks.owner(g) == me ? 1 : 0);
  }
  return L;
}

void size_vectors(LocalLevel& L) {
  const std::size_t n = L.slots();
  for (auto* v : {&L.x, &L.b, &L.r, &L.y, &L.diag_inv, &L.d}) instrument::assign_huge(*v, n, 0.0);
}

}  // namespace

TransferSets transfer_sets(const Grid& fine, const NodeRanks& fr, const NodeRanks& cr, bool inherited) {
  // Inherited parts on a refinement: a coarse node inside one part feeds only its owner's
  // fine nodes (its copy and its edges' midpoints are in that part alone) and no rank needs
  // it without holding it. Only the pairs of the nodes on a border are then collected.
  const bool shortcut = inherited && fine.refined;
  std::vector<std::uint64_t> feeders, needers;
  if (!shortcut)  // 1 coarse node a coarse node's copy, 2 a midpoint
    instrument::reserve_huge(feeders, 2 * fine.node_count());
  for (Index g = 0; g < fine.node_count(); ++g) {
    const CoarseStencil from = fine.stencil(g);
    for (std::uint32_t k = 0; k < from.count; ++k) {
      const Index c = from.node[k];
      if (shortcut && cr.count(c) == 1) continue;
      feeders.push_back(node_rank_pair(c, fr.owner(g)));
      for (std::uint32_t k = fr.offsets[g]; k < fr.offsets[g + 1]; ++k)
        if (!cr.holds(c, fr.ranks[k])) needers.push_back(node_rank_pair(c, fr.ranks[k]));
    }
  }
  const std::size_t cn = cr.offsets.size() - 1;  // the coarse grid's nodes
  TransferSets t{ranks_from_pairs(feeders, cn), ranks_from_pairs(needers, cn), {}};
  if (shortcut) {  // the one-part coarse nodes' feeder, their owner, put in
    NodeRanks fed;
    fed.offsets.resize(cn + 1);
    fed.ranks.reserve(cn + t.fed_by.ranks.size());
    for (std::size_t c = 0; c < cn; ++c) {
      fed.offsets[c] = static_cast<std::uint32_t>(fed.ranks.size());
      if (cr.count(static_cast<Index>(c)) == 1) fed.ranks.push_back(cr.owner(static_cast<Index>(c)));
      else
        fed.ranks.insert(fed.ranks.end(), t.fed_by.ranks.begin() + t.fed_by.offsets[c],
                         t.fed_by.ranks.begin() + t.fed_by.offsets[c + 1]);
    }
    fed.offsets[cn] = static_cast<std::uint32_t>(fed.ranks.size());
    t.fed_by = std::move(fed);
  }
  t.owner_only.offsets.resize(cn + 1);
  t.owner_only.ranks.resize(cn);
  for (std::size_t c = 0; c < cn; ++c) {
    t.owner_only.offsets[c] = static_cast<std::uint32_t>(c);
    t.owner_only.ranks[c] = cr.owner(static_cast<Index>(c));
  }
  t.owner_only.offsets[cn] = static_cast<std::uint32_t>(cn);
  return t;
}

std::vector<LocalLevel> build_local_levels(const std::vector<Grid>& grids,
                                           const std::vector<std::vector<std::int32_t>>& parts, int me,
                                           int nprocs, SetupClock* clock) {
  std::vector<LocalLevel> levels = number_local_levels(grids, parts, me, nprocs, clock);
  batch_local_levels(levels, clock);
  return levels;
}

std::vector<LocalLevel> number_local_levels(const std::vector<Grid>& grids,
                                            const std::vector<std::vector<std::int32_t>>& parts, int me,
                                            int nprocs, SetupClock* clock) {
  std::vector<NodeRanks> ranks;
  std::vector<bool> inherited;  // per grid: a refinement whose cells took their parents' parts
  std::vector<LocalLevel> levels;
  for (std::size_t l = 0; l < grids.size(); ++l) {
    {
      SetupTimer t(clock, "node-ranks");
      NodeRanks r;
      inherited.push_back(l > 0 && refined_node_ranks(grids[l], parts[l], grids[l - 1], parts[l - 1], ranks[l - 1], r));
      if (!inherited.back())  // a list made only where the parts are kept by parent, not a copy of every grid's
        r = parts_by_parent(grids, parts, l) ? node_ranks(grids[l], stored_parts(grids, parts, l)) : node_ranks(grids[l], parts[l]);
      ranks.push_back(std::move(r));
    }
    {
      SetupTimer t(clock, "numbering");
      const Grid* parents = l > 0 && grids[l].refined ? &grids[l - 1] : nullptr;
      static const std::vector<std::int32_t> kNoParts;
      levels.push_back(local_cells_and_nodes(grids[l], parents, parts[l], l > 0 ? parts[l - 1] : kNoParts, ranks[l], me));
    }
    SetupTimer t(clock, "exchange-plans");
    levels[l].assemble = build_sum_exchange(ranks[l], ranks[l], me, nprocs, levels[l].slot_of);
  }
  for (std::size_t l = 1; l < grids.size(); ++l) {
    const Grid& fine = grids[l];
    LocalLevel &F = levels[l], &C = levels[l - 1];
    const NodeRanks &fr = ranks[l], &cr = ranks[l - 1];
    std::optional<SetupTimer> phase(std::in_place, clock, "transfers");
    const TransferSets sets = transfer_sets(fine, fr, cr, inherited[l]);
    // Ghost slots on the coarse level: the coarse nodes my fine nodes reference, ascending.
    std::vector<Index> ghosts;
    for (std::size_t s = 0; s < F.n_local; ++s) {
      const CoarseStencil from = fine.stencil(F.node_global[s]);
      for (std::uint32_t k = 0; k < from.count; ++k)
        if (C.slot_of[from.node[k]] == kNoSlot) ghosts.push_back(from.node[k]);
    }
    std::sort(ghosts.begin(), ghosts.end());
    ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
    for (Index c : ghosts) add_slot(C, c);
    if (fine.refined) {  // weights 1, or 1/2 and 1/2 (Grid::stencil): the slots say which
      instrument::reserve_huge(F.coarse_pairs, F.n_local);
      for (std::size_t s = 0; s < F.n_local; ++s) {
        const CoarseStencil from = fine.stencil(F.node_global[s]);
        F.coarse_pairs.push_back({C.slot_of[from.node[0]], from.count == 2 ? C.slot_of[from.node[1]] : kNoSlot});
      }
    } else {
      instrument::reserve_huge(F.coarse_slots, F.n_local);
      for (std::size_t s = 0; s < F.n_local; ++s) {
        const CoarseStencil from = fine.stencil(F.node_global[s]);
        LocalLevel::SlotStencil to;
        to.count = from.count;
        for (std::uint32_t k = 0; k < from.count; ++k) {
          to.slot[k] = C.slot_of[from.node[k]];
          to.weight[k] = from.weight[k];
        }
        F.coarse_slots.push_back(to);
      }
    }
    phase.emplace(clock, "exchange-plans");
    C.restrict_sum = build_sum_exchange(sets.fed_by, cr, me, nprocs, C.slot_of);
    C.prolong_fetch = build_sum_exchange(sets.owner_only, sets.needed_by, me, nprocs, C.slot_of);
  }
  return levels;
}

void batch_local_levels(std::vector<LocalLevel>& levels, SetupClock* clock) {
  SetupTimer t(clock, "batches");
  for (LocalLevel& L : levels) {
    size_vectors(L);
    batch_cells(L);
  }
}

template <std::size_t N>
ItemBatches<N> batch_items(const std::array<std::uint32_t, N>* items, std::size_t n) {
  ItemBatches<N> B;
  B.items = n;
  const std::size_t batches = (n + kBatch - 1) / kBatch;
  instrument::reserve_huge(B.batches, batches);
  for (std::size_t b = 0; b < batches; ++b) {
    typename ItemBatches<N>::Batch batch;
    for (std::size_t l = 0; l < kBatch; ++l) {
      const std::size_t c = kBatch * b + l;
      const std::array<std::uint32_t, N>& item = items[c < n ? c : kBatch * b];  // a dead lane repeats lane 0's
      for (std::size_t k = 0; k < N; ++k) batch[k][l] = item[k];
    }
    B.batches.push_back(batch);
  }
  return B;
}
template ItemBatches<4> batch_items(const std::array<std::uint32_t, 4>*, std::size_t);
template ItemBatches<10> batch_items(const std::array<std::uint32_t, 10>*, std::size_t);

double working_set_bytes(const LocalLevel& L) {
  const auto bytes = [](const auto& v) { return static_cast<double>(v.size() * sizeof(v[0])); };
  double sum = bytes(L.family_batches.batches) + bytes(L.loose_batches.batches) + bytes(L.xyz) + bytes(L.dirichlet);
  for (const std::vector<double>* v : {&L.x, &L.b, &L.r, &L.y, &L.diag_inv, &L.d}) sum += bytes(*v);
  return sum;
}

void batch_cells(LocalLevel& L) {
  L.loose_batches = batch_items(L.loose_cells.data(), L.loose_cells.size());
}

void dissolve_families(LocalLevel& L, std::size_t keep) {
  if (keep >= L.family_count()) return;
  std::vector<std::array<std::uint32_t, 4>> cells;
  cells.reserve(8 * (L.family_count() - keep) + L.loose_cells.size());
  for (std::size_t f = keep; f < L.family_count(); ++f)
    for (std::size_t j = 0; j < 8; ++j) cells.push_back(family_cell(L, f, j));
  cells.insert(cells.end(), L.loose_cells.begin(), L.loose_cells.end());
  L.loose_cells = std::move(cells);
  keep_items(L.family_batches, keep);
  L.family_shape.resize(keep);
}

}  // namespace mg
