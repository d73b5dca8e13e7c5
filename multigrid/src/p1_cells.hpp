// The builds of the cell loop behind apply_cells (p1_operator.hpp); internal to it.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "multigrid/node_point.hpp"

namespace mg::detail {

// Cells (or families) are taken as four streams, stream l being items [l q, (l + 1) q) with
// q = stream_length(n), one of each in turn: items l q + b for l = 0..3, then b + 1. Four in
// a row then rarely share a node (far apart in Morton order), so a node's scatter seldom
// waits on the one just before it (a store-to-load chain that made the cell-by-cell order
// run half as fast), and each stream still walks the Morton order. Only the last streams run
// out, so the live ones are always streams 0..k.
inline std::size_t stream_length(std::size_t n_cells) { return (n_cells + 3) / 4; }

// Out of the last-level cache the loop waits on the node records it gathers (their nodes
// come from several earlier layers of the Morton curve, which hardware prefetchers do not
// follow), so the geometry nodes of batch b + kPrefetchBatches are asked for while batch b
// is computed: 1.3 times faster on 42M cells, no change in cache (BENCHMARKS.md). The node
// values u and the sums y gain nothing from it (they share lines with the records' nodes'
// neighbours, already on their way).
inline constexpr std::size_t kPrefetchBatches = 8;
template <std::size_t N>
inline void prefetch_geometry(const NodePoint* points, const std::array<std::uint32_t, N>* items, std::size_t n_items,
                              std::size_t q, std::size_t b) {
  for (std::size_t l = 0; l < 4; ++l) {
    const std::size_t c = l * q + b;
    if (c >= n_items) return;
    for (std::size_t n = 0; n < 4; ++n) __builtin_prefetch(&points[items[c][n]], 0, 3);
  }
}

// y += K u over `items`: cells (N = 4 corner slots) or families (N = 10 node slots,
// p1_cell_math.hpp), as four streams; u and y are indexed by slot, as points are. Built for
// N = 4 and 10.
template <std::size_t N>
void apply_portable(const NodePoint* points, const std::array<std::uint32_t, N>* items, std::size_t n_items,
                    const double* u, double* y);
#ifdef MULTIGRID_HAVE_AVX2
template <std::size_t N>
void apply_avx2(const NodePoint* points, const std::array<std::uint32_t, N>* items, std::size_t n_items,
                const double* u, double* y);
#endif

}  // namespace mg::detail
