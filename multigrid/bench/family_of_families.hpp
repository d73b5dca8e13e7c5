// A family of families: the 64 cells of two uniform refinements of one tetrahedron (a
// grandparent), on its 35 nodes, taken as one batch of eight families (one a lane) in a fixed
// labelling, so that which lane and slot adds to which node is known at compile time and the
// scatter of the batch's 80 sums to its 35 nodes is scheduled by the compiler (each y loaded
// and stored once, no run-time table). For the smoother bench's --family-of-families
// (smoother_bench.cpp): the ceiling of that layout, measured on the finest grid of a Kuhn
// cube beside the program's loop. Not (yet) a build of the smoother: the threads' split and
// the kept lanes are not handled, and its sums take another order (so other bits) than
// p1_cells.hpp's.
//
// The fixed labelling. The grandparent's 10 nodes (its corners and edge midpoints) are
// locals 0..9 in the family order of p1_cell_math.hpp (v0..v3, m01..m23, its octahedron's
// diagonal m01-m23). Lane j is the family of the grandparent's child kFamilyChild[j], whose
// corners in that table's order are the lane's canonical corners w0..w3, and its canonical
// slots w0..w3, m(w0 w1), ..., m(w2 w3). The 25 midpoints of the children's edges are locals
// 10..34, numbered by first appearance slot by slot, lane by lane. Each family's own
// octahedron diagonal picks its labelling (p1_cell_math.hpp wants it m01-m23): its canonical
// order as it is (diagonal m(w0 w1)-m(w2 w3)), with w1 and w2 swapped, or with w1 and w3
// swapped (local_level.cpp's kRelabel); a batch keeps which lanes swap as two masks, and the
// loop swaps those lanes' slots in registers.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/node_point.hpp"

namespace mg::bench {

inline constexpr std::size_t kFofNodes = 35;

struct FamilyOfFamilies {
  std::uint32_t slot[kFofNodes];  // local node i's slot
  std::uint8_t swap12, swap13;    // lanes whose family swaps w1, w2 / w1, w3 (a bit a lane)
  std::uint8_t unused[2];
};
static_assert(sizeof(FamilyOfFamilies) == 144, "35 slots and two masks");

// The fixed labelling as tables: local[j][n], lane j's canonical slot n's local node; and per
// local node its sums in the order they are added, lane by lane: count[i] of them, from
// canonical slot from_slot[i][k] of lane from_lane[i][k].
struct FofLayout {
  unsigned char local[8][10];
  unsigned char count[kFofNodes];
  unsigned char from_slot[kFofNodes][8];
  unsigned char from_lane[kFofNodes][8];
};

// p1_cell_math.hpp's kFamilyChild, repeated so that this header stays free of the ISA-specific
// one (family_of_families.cpp checks they agree).
inline constexpr unsigned char kFofChild[8][4] = {{0, 4, 5, 6}, {4, 1, 7, 8}, {5, 7, 2, 9}, {6, 8, 9, 3},
                                                  {4, 9, 5, 6}, {4, 9, 6, 8}, {4, 9, 8, 7}, {4, 9, 7, 5}};
inline constexpr int kFofEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

constexpr FofLayout make_fof_layout() {
  FofLayout t{};
  int quarter[kFofNodes][4] = {};  // barycentric coordinates in quarters of the grandparent's
  for (int k = 0; k < 4; ++k) quarter[k][k] = 4;
  for (int e = 0; e < 6; ++e) quarter[4 + e][kFofEdges[e][0]] = quarter[4 + e][kFofEdges[e][1]] = 2;
  int known = 10;
  for (int j = 0; j < 8; ++j)
    for (int n = 0; n < 4; ++n) t.local[j][n] = kFofChild[j][n];
  for (int n = 4; n < 10; ++n)
    for (int j = 0; j < 8; ++j) {
      const int p = kFofChild[j][kFofEdges[n - 4][0]], q = kFofChild[j][kFofEdges[n - 4][1]];
      int at = -1;
      for (int i = 0; i < known && at < 0; ++i) {
        bool same = true;
        for (int a = 0; a < 4; ++a) same = same && 2 * quarter[i][a] == quarter[p][a] + quarter[q][a];
        if (same) at = i;
      }
      if (at < 0) {
        at = known++;
        for (int a = 0; a < 4; ++a) quarter[at][a] = (quarter[p][a] + quarter[q][a]) / 2;
      }
      t.local[j][n] = static_cast<unsigned char>(at);
    }
  for (int j = 0; j < 8; ++j)
    for (int n = 0; n < 10; ++n) {
      const int i = t.local[j][n];
      t.from_slot[i][t.count[i]] = static_cast<unsigned char>(n);
      t.from_lane[i][t.count[i]] = static_cast<unsigned char>(j);
      ++t.count[i];
    }
  return t;
}
inline constexpr FofLayout kFofLayout = make_fof_layout();

// The batches of the finest grid's families of families (grids.size() >= 3), ordered by their
// least slot; families outside one (none on a Kuhn cube held whole) are counted, not batched.
struct FofBatches {
  std::vector<FamilyOfFamilies> batches;
  std::size_t refused = 0;  // grandparents whose 64 cells are not the fixed labelling's
};
FofBatches family_of_families_batches(const std::vector<Grid>& grids, const LocalLevel& L);

// y += K u over the batches (AVX-512; defined only where that build is), or with a part
// left out, as cell_loop_parts.hpp does (the product: u + x stands in; the scatter: the
// sums go to y[0]), for where the loop's time goes.
// Whole loops too: gather_values takes u by four gathers instead of scalar loads;
// relabel_if_any swaps lanes only in the batches with relabelled lanes (a branch).
enum class FofPart { nothing, product, scatter, gather_values, relabel_if_any };
void apply_families_of_families(const NodePoint* points, const std::vector<FamilyOfFamilies>& batches,
                                const double* u, double* y, FofPart left_out = FofPart::nothing);
// The same sums in the same order, one lane at a time (the bits the AVX-512 loop must equal).
void apply_families_of_families_portable(const NodePoint* points, const std::vector<FamilyOfFamilies>& batches,
                                         const double* u, double* y);

}  // namespace mg::bench
