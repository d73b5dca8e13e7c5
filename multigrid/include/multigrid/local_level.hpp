// One process's share of one grid: its cells (those of its part) with corners renumbered
// into local slots, the nodes they touch, and on coarse grids the ghost slots the transfers
// from the next finer grid need. Cells are taken in Morton order of their centroids (of
// their parents' on a refined grid; a family's 8 as its nodes and shape, the cells in no
// family after them, as corners) and nodes numbered by first touch in that order, so the smoother's gathers and scatters walk memory nearly in sequence (a
// random gather runs many times slower than streaming here).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "multigrid/hierarchy.hpp"
#include "multigrid/item_batches.hpp"
#include "multigrid/node_point.hpp"
#include "multigrid/setup_clock.hpp"
#include "multigrid/sum_exchange.hpp"

namespace mg {

// A family's children's corners as places among its 10 nodes: corner k of child j is node
// places[j][k].
using CornerPlaces = std::array<std::array<std::uint8_t, 4>, 8>;

struct LocalLevel {
  std::size_t global_cells = 0, global_nodes = 0;
  std::size_t n_local = 0;                 // nodes of my cells: slots [0, n_local)
  std::vector<Index> node_global;          // [slot]: local nodes, then ghosts
  std::vector<std::uint32_t> slot_of;      // [global node]: my slot or kNoSlot
  // On a refined grid (Grid::refined), the parents all 8 of whose children are mine (a family), in Morton
  // order of the parent: the slots of the family's 10 nodes v0..v3, m01, m02, m03, m12,
  // m13, m23 (m_ij the midpoint of parent edge ij), the parent's corners labelled so that
  // the children are those of p1_cell_math.hpp's table. The smoother gathers a family's
  // nodes once for its 8 cells. They are kept only in family_batches (family(f) reads one),
  // written there as the numbering finds them: a list of them beside the batches was 40 B a
  // family more to write at the set-up (BENCHMARKS.md).
  std::size_t family_count() const { return family_batches.items; }
  std::array<std::uint32_t, 10> family(std::size_t f) const { return item_of(family_batches, f); }
  // Family f's children as the grid lists their corners: child j's corner k is
  // family(f)[shapes[family_shape[f]][j][k]] (family_cell). A refinement's families take a
  // few shapes (one a diagonal), so 2 B a family stand for the 128 B of its cells' corners.
  std::vector<std::uint16_t> family_shape;
  std::vector<CornerPlaces> shapes;
  std::vector<std::array<std::uint32_t, 4>> loose_cells;  // the cells in no family, corners as slots
  // The families and the cells in none, batched for the cell loop (item_batches.hpp): the
  // families by the numbering, the loose cells from `loose_cells` by batch_cells, which must
  // run again after they change.
  ItemBatches<10> family_batches;
  ItemBatches<4> loose_batches;
  std::vector<NodePoint> xyz;              // per local node
  std::vector<std::uint8_t> dirichlet;     // per local node
  std::vector<std::uint8_t> owned;         // per local node: I am its owner (lowest holder)
  SumExchange assemble;                    // partial sums over my cells -> totals

  // Transfers with the next finer grid (coarse side; empty on the finest grid).
  SumExchange restrict_sum;                // fine residuals' weighted shares -> coarse totals
  SumExchange prolong_fetch;               // owner's coarse correction -> ghost slots
  // Fine side (empty on the coarsest grid): per local node, the coarse slots it
  // interpolates from (Grid::stencil in slots). On a refined grid a node is a coarse node's
  // copy (weight 1) or its edge's midpoint (1/2 from each end): its two slots alone, the
  // second kNoSlot for a copy, 8 B a node (coarse_pairs). On a sequence's grid any stencil
  // with its weights, 56 B (coarse_slots). One of the two is filled.
  std::vector<std::array<std::uint32_t, 2>> coarse_pairs;
  struct SlotStencil {
    std::array<std::uint32_t, 4> slot{};
    std::array<double, 4> weight{};
    std::uint32_t count = 0;
  };
  std::vector<SlotStencil> coarse_slots;

  // Vectors over all slots (ghosts included).
  std::vector<double> x, b, r, y, diag_inv, d;  // d: the Chebyshev step
  std::size_t slots() const { return node_global.size(); }
  std::size_t cell_count() const { return 8 * family_count() + loose_cells.size(); }
};

// Corners (slots) of child j of family f, in the grid's order of them.
inline std::array<std::uint32_t, 4> family_cell(const LocalLevel& L, std::size_t f, std::size_t j) {
  const std::array<std::uint8_t, 4>& at = L.shapes[L.family_shape[f]][j];
  const ItemBatches<10>::Batch& batch = L.family_batches.batches[f / kBatch];
  const std::size_t l = f % kBatch;
  return {batch[at[0]][l], batch[at[1]][l], batch[at[2]][l], batch[at[3]][l]};
}

// per_cell(corners) for every cell of the level: the families' children family by family,
// then the cells in no family, in order.
template <class PerCell>
void for_each_cell(const LocalLevel& L, PerCell&& per_cell) {
  for (std::size_t f = 0; f < L.family_count(); ++f)
    for (std::size_t j = 0; j < 8; ++j) per_cell(family_cell(L, f, j));
  for (const std::array<std::uint32_t, 4>& v : L.loose_cells) per_cell(v);
}

// Leaves the first `keep` families and makes the rest's cells loose, ahead of the loose cells
// there are, in the order for_each_cell gives (tests and benches: the same cells swept
// without families). The caller must then run batch_cells.
void dissolve_families(LocalLevel& L, std::size_t keep);

// Rebuilds L.loose_batches from L.loose_cells (the families are batched as they are made).
void batch_cells(LocalLevel& L);

// The bytes this process's sweep of the level goes over: the cells' batches, the nodes'
// coordinates and flags and the six node vectors. A superstep after a sweep pays for the
// caches the sweep took over (bsplib/model/after_stream.hpp); its replay prices that by this
// working set.
double working_set_bytes(const LocalLevel& L);

// The processes on each side of the transfers between a fine grid and the next coarser one,
// per coarse node: those that feed its restriction (the owners of the fine nodes that
// interpolate from it), those that need its prolonged value without holding it, and its
// owner alone (who sends that value). The sum exchanges of the transfers are built on these.
struct TransferSets {
  NodeRanks fed_by, needed_by, owner_only;
};
// `inherited`: true only where refined_node_ranks returned true for these grids and parts
// (`fine` refines the coarser grid and its cells took their parents' parts; not checked
// here): pairs are then collected only for the coarse nodes on a border.
TransferSets transfer_sets(const Grid& fine, const NodeRanks& fine_ranks, const NodeRanks& coarse_ranks,
                           bool inherited = false);

// Every level of process `me` (levels[l] for grids[l]); `parts` from inherit_parts. Builds
// the exchanges (not yet registered with bsplib). `clock`, if given, gets the seconds of its
// phases: node-ranks, numbering, exchange-plans, transfers, batches. It is the two below in
// turn.
std::vector<LocalLevel> build_local_levels(const std::vector<Grid>& grids,
                                           const std::vector<std::vector<std::int32_t>>& parts, int me,
                                           int nprocs, SetupClock* clock = nullptr);

// The levels' cells, nodes, transfers and exchanges: all that reads the grids and parts.
std::vector<LocalLevel> number_local_levels(const std::vector<Grid>& grids,
                                            const std::vector<std::vector<std::int32_t>>& parts, int me,
                                            int nprocs, SetupClock* clock = nullptr);
// The rest, from the levels alone (phase "batches"): each level's six vectors, zero, and its
// loose cells' batches (the families' are made by the numbering). The grids may be freed
// before it, so that these arrays, the largest a process writes after the numbering, take the
// memory the grids held rather than pages never touched.
void batch_local_levels(std::vector<LocalLevel>& levels, SetupClock* clock = nullptr);

}  // namespace mg
