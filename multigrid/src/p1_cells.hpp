// The builds of the cell loop behind apply_cells (p1_operator.hpp); internal to it.
//
// Every build takes the items (cells or families) in batches of eight (item_batches.hpp) and
// scatters a batch's products slot by slot, lane by lane within a slot: y[slot[n][l]] +=
// out[n][l] for n = 0..N-1, then l over the live lanes. All keep that order, so all give the
// same bits. A build sweeps a range of the batches (cell_loop_split.hpp: a thread's share),
// and keeps the sums of the range's kept lanes aside, in that order, instead of adding them.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "multigrid/cell_loop_split.hpp"
#include "multigrid/item_batches.hpp"
#include "multigrid/node_point.hpp"
#include "p1_cell_math.hpp"

namespace mg::detail {
inline namespace MG_CELL_MATH_ISA {

// Out of the last-level cache the loop waits on the node records it gathers (their nodes
// come from several earlier layers of the Morton curve, which hardware prefetchers do not
// follow), so the geometry nodes of batch b + kPrefetchBatches are asked for while batch b
// is computed: 1.3 times faster on 42M cells, no change in cache (BENCHMARKS.md). The node
// values u and the sums y gain nothing from it (they share lines with the records' nodes'
// neighbours, already on their way).
inline constexpr std::size_t kPrefetchBatches = 16;
template <std::size_t N>
inline void prefetch_geometry(const NodePoint* points, const typename ItemBatches<N>::Batch& batch) {
  for (std::size_t n = 0; n < kGeometryNodes; ++n)
    for (std::size_t l = 0; l < kBatch; ++l) __builtin_prefetch(&points[batch[n][l]], 0, 3);
}

// y += out over a batch's live lanes, in the order every build keeps.
template <std::size_t N>
inline void scatter_batch(const typename ItemBatches<N>::Batch& batch, std::size_t lanes,
                          const double (&out)[N][kBatch], double* y) {
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t l = 0; l < lanes; ++l) y[batch[n][l]] += out[n][l];
}

// The scatter of the batches of a range (BatchRange): batch by batch, the kept lanes' sums
// written to `kept` in order, the others added to y as scatter_batch does. The batches with
// kept lanes are few (those on a surface between two threads' ranges): one comparison a
// batch finds them.
template <std::size_t N>
class RangeScatter {
 public:
  RangeScatter(const BatchRange<N>& range, double* kept)
      : next_(range.kept.data()), last_(range.kept.data() + range.kept.size()), kept_(kept) {}
  void operator()(std::size_t b, const typename ItemBatches<N>::Batch& batch, std::size_t lanes,
                  const double (&out)[N][kBatch], double* y) {
    if (next_ == last_ || next_->batch != b) {
      scatter_batch<N>(batch, lanes, out, y);
      return;
    }
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t l = 0; l < lanes; ++l) {
        if ((next_->lanes[n] >> l) & 1u) *kept_++ = out[n][l];
        else y[batch[n][l]] += out[n][l];
      }
    ++next_;
  }
  double* kept_end() const { return kept_; }

 private:
  const KeptLanes<N>* next_;
  const KeptLanes<N>* last_;
  double* kept_;
};

}  // inline namespace MG_CELL_MATH_ISA

// y += K u over the batches of `range` of the batched items: cells (N = 4 corner slots) or
// families (N = 10 node slots, p1_cell_math.hpp); u and y are indexed by slot, as points are.
// The range's kept lanes' sums go to kept[0], kept[1], ... instead; returns the end of what
// was written there. Built for N = 4 and 10.
template <std::size_t N>
double* apply_portable(const NodePoint* points, const ItemBatches<N>& items, const BatchRange<N>& range,
                       const double* u, double* y, double* kept);
#ifdef MULTIGRID_HAVE_AVX2
template <std::size_t N>
double* apply_avx2(const NodePoint* points, const ItemBatches<N>& items, const BatchRange<N>& range,
                   const double* u, double* y, double* kept);
#endif
#ifdef MULTIGRID_HAVE_AVX512
template <std::size_t N>
double* apply_avx512(const NodePoint* points, const ItemBatches<N>& items, const BatchRange<N>& range,
                     const double* u, double* y, double* kept);
#endif

}  // namespace mg::detail
