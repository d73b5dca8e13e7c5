// The families of families' batches and their portable loop (family_of_families.hpp).
#include "family_of_families.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "../src/p1_cell_math.hpp"

namespace mg::bench {

namespace {

static_assert([] {
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k < 4; ++k)
      if (kFofChild[j][k] != detail::kFamilyChild[j][k]) return false;
  return true;
}(), "kFofChild is p1_cell_math.hpp's kFamilyChild");

// The lanes' relabellings (local_level.cpp's kRelabel as a permutation of the 10 slots):
// family slot n is canonical slot kSlotOf[d][n]; each is its own inverse.
constexpr unsigned char kSlotOf[3][10] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 2, 1, 3, 5, 4, 6, 7, 9, 8}, {0, 3, 2, 1, 6, 5, 4, 9, 8, 7}};

std::uint64_t edge_key(Index a, Index b) {
  return a < b ? (std::uint64_t{a} << 32 | b) : (std::uint64_t{b} << 32 | a);
}

// Node of a refined grid at the midpoint of the coarser grid's edge (a, b).
class Midpoints {
 public:
  explicit Midpoints(const Grid& g) {
    at_.reserve(g.midpoint_of.size());
    for (std::size_t k = 0; k < g.midpoint_of.size(); ++k)
      at_.emplace(edge_key(g.midpoint_of[k][0], g.midpoint_of[k][1]), static_cast<Index>(g.coarse_nodes + k));
  }
  Index operator()(Index a, Index b) const {
    const auto it = at_.find(edge_key(a, b));
    if (it == at_.end()) throw std::logic_error("family_of_families_batches: no midpoint");
    return it->second;
  }

 private:
  std::unordered_map<std::uint64_t, Index> at_;
};

// Which octahedron diagonal a refined cell took: the ends of its child 4 (refine.hpp) among
// the midpoints of its labelled edges mid[0..5] (kFofEdges): 0 (m01-m23), 1 (m02-m13), 2
// (m03-m12), or -1.
int diagonal_of(const Grid& finer, Index cell, const Index (&mid)[6]) {
  const auto& d = finer.cell(8 * static_cast<std::size_t>(cell) + 4);
  constexpr int kEnds[3][2] = {{0, 5}, {1, 4}, {2, 3}};
  for (int k = 0; k < 3; ++k) {
    const Index a = mid[kEnds[k][0]], b = mid[kEnds[k][1]];
    if ((d[0] == a && d[1] == b) || (d[0] == b && d[1] == a)) return k;
  }
  return -1;
}

}  // namespace

FofBatches family_of_families_batches(const std::vector<Grid>& grids, const LocalLevel& L) {
  if (grids.size() < 3) throw std::invalid_argument("families of families want 3 grids or more");
  const Grid &fine = grids[grids.size() - 1], &parents = grids[grids.size() - 2], &top = grids[grids.size() - 3];
  const Midpoints mid1(parents), mid2(fine);
  FofBatches out;
  std::vector<std::pair<std::uint32_t, FamilyOfFamilies>> keyed;
  keyed.reserve(top.cell_count());
  for (std::size_t g = 0; g < top.cell_count(); ++g) {
    const auto& a = top.cell(g);
    Index m[6];
    for (int e = 0; e < 6; ++e) m[e] = mid1(a[kFofEdges[e][0]], a[kFofEdges[e][1]]);
    const int dg = diagonal_of(parents, static_cast<Index>(g), m);
    // The grandparent's family order (local_level.cpp's labelled): locals 0..9.
    const unsigned char* r = kSlotOf[dg < 0 ? 0 : dg];
    Index global[kFofNodes];
    std::fill(std::begin(global), std::end(global), ~Index{0});
    for (int k = 0; k < 4; ++k) global[k] = a[r[k]];
    for (int e = 0; e < 6; ++e) global[4 + e] = mid1(global[kFofEdges[e][0]], global[kFofEdges[e][1]]);
    bool ok = dg >= 0;
    FamilyOfFamilies batch{};
    for (int j = 0; j < 8 && ok; ++j) {
      Index w[4];
      for (int k = 0; k < 4; ++k) w[k] = global[kFofChild[j][k]];
      // The child with these corners: one of cells 8g..8g+7 of the parents' grid.
      Index q = ~Index{0};
      for (std::size_t c = 8 * g; c < 8 * g + 8; ++c) {
        auto n = parents.cell(c);
        std::array<Index, 4> s = {w[0], w[1], w[2], w[3]};
        std::sort(n.begin(), n.end());
        std::sort(s.begin(), s.end());
        if (n == s) q = static_cast<Index>(c);
      }
      if (q == ~Index{0}) { ok = false; break; }
      Index cm[6];
      for (int e = 0; e < 6; ++e) cm[e] = mid2(w[kFofEdges[e][0]], w[kFofEdges[e][1]]);
      const int d = diagonal_of(fine, q, cm);
      if (d < 0) { ok = false; break; }
      if (d == 1) batch.swap12 = static_cast<std::uint8_t>(batch.swap12 | 1u << j);
      if (d == 2) batch.swap13 = static_cast<std::uint8_t>(batch.swap13 | 1u << j);
      for (int n = 4; n < 10; ++n) {
        Index& at = global[kFofLayout.local[j][n]];
        if (at == ~Index{0}) at = cm[n - 4];
        else if (at != cm[n - 4]) ok = false;
      }
    }
    if (!ok) { ++out.refused; continue; }
    std::uint32_t least = ~std::uint32_t{0};
    for (std::size_t i = 0; i < kFofNodes; ++i) {
      batch.slot[i] = L.slot_of[global[i]];
      if (batch.slot[i] == kNoSlot) { ok = false; break; }
      least = std::min(least, batch.slot[i]);
    }
    if (!ok) { ++out.refused; continue; }
    keyed.push_back({least, batch});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  out.batches.reserve(keyed.size());
  for (const auto& k : keyed) out.batches.push_back(k.second);
  return out;
}

void apply_families_of_families_portable(const NodePoint* points, const std::vector<FamilyOfFamilies>& batches,
                                         const double* u, double* y) {
  for (const FamilyOfFamilies& b : batches) {
    double out[10][8];  // canonical slot, lane
    for (int j = 0; j < 8; ++j) {
      const int d = (b.swap12 >> j & 1) ? 1 : (b.swap13 >> j & 1) ? 2 : 0;
      detail::FamilyNodes<double> f;
      for (int k = 0; k < 4; ++k) {
        const NodePoint& p = points[b.slot[kFofChild[j][kSlotOf[d][k]]]];
        f.x[k] = p.x;
        f.y[k] = p.y;
        f.z[k] = p.z;
      }
      for (int n = 0; n < 10; ++n) f.u[n] = u[b.slot[kFofLayout.local[j][kSlotOf[d][n]]]];
      double acc[10];
      detail::family_product(f, acc);
      for (int n = 0; n < 10; ++n) out[kSlotOf[d][n]][j] = acc[n];
    }
    for (std::size_t i = 0; i < kFofNodes; ++i) {
      double s = y[b.slot[i]];
      for (int k = 0; k < kFofLayout.count[i]; ++k) s += out[kFofLayout.from_slot[i][k]][kFofLayout.from_lane[i][k]];
      y[b.slot[i]] = s;
    }
  }
}

}  // namespace mg::bench
