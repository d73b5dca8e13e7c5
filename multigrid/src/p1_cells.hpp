// The builds of the cell loop behind apply_cells (p1_operator.hpp); internal to it.
//
// Every build takes the items (cells or families) in batches of eight (item_batches.hpp) and
// adds a batch's products to each node in the order of the scatter slot by slot, lane by lane
// within a slot: y[slot[n][l]] += out[n][l] for n = 0..N-1, then l over the live lanes. All
// keep each node's order, so all give the same bits; the AVX-512 build takes the sums node by
// node where the range has the batches' tables (batch_node_sums.hpp, RangeScatter). A build
// sweeps a range of the batches (cell_loop_split.hpp: a thread's share), and keeps the sums of
// the range's kept lanes aside, in that order, instead of adding them.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "multigrid/batch_node_sums.hpp"
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

// The same sums node by node (batch_node_sums.hpp): each node's y loaded once, its sums added
// in their order in a register, stored once. Every node takes its additions in the order
// scatter_batch gives them, so the bits are the same.
// Element p of an array of arrays taken as one array (position p = 8 n + l: slot n, lane l),
// read through its bytes, which is defined where indexing past the inner array is not; it
// compiles to one load. (Indexing [p / 8][p % 8] instead cost the whole gain: 1.01 against
// slot by slot.)
template <class T, class Array>
inline T element(const Array& a, std::size_t p) {
  static_assert(sizeof(Array) % sizeof(T) == 0, "an array of T without padding");
  T v;
  std::memcpy(&v, reinterpret_cast<const unsigned char*>(&a) + p * sizeof(T), sizeof(T));
  return v;
}
template <std::size_t C, std::size_t N>
inline const std::uint8_t* add_node_sums(const std::uint8_t* at, std::size_t nodes,
                                         const typename ItemBatches<N>::Batch& batch, const double (&out)[N][kBatch],
                                         double* y) {
  for (std::size_t i = 0; i < nodes; ++i, at += C) {
    const std::uint32_t node = element<std::uint32_t>(batch, at[0]);
    double sum = y[node];
#pragma GCC unroll 8
    for (std::size_t k = 0; k < C; ++k) sum += element<double>(out, at[k]);
    y[node] = sum;
  }
  return at;
}
template <std::size_t N>
inline void scatter_by_node(const BatchNodeSums<N>& t, const typename ItemBatches<N>::Batch& batch,
                            const double (&out)[N][kBatch], double* y) {
  const std::uint8_t* at = t.order.data();
  at = add_node_sums<1, N>(at, t.nodes[0], batch, out, y);
  at = add_node_sums<2, N>(at, t.nodes[1], batch, out, y);
  at = add_node_sums<3, N>(at, t.nodes[2], batch, out, y);
  at = add_node_sums<4, N>(at, t.nodes[3], batch, out, y);
  at = add_node_sums<5, N>(at, t.nodes[4], batch, out, y);
  at = add_node_sums<6, N>(at, t.nodes[5], batch, out, y);
  at = add_node_sums<7, N>(at, t.nodes[6], batch, out, y);
  add_node_sums<8, N>(at, t.nodes[7], batch, out, y);
}

// How a build adds a batch's sums to y: slot by slot (scatter_batch), or node by node where
// the range has the tables (scatter_by_node). On Zen 5 node by node ran 0.91-0.93 of the time
// of slot by slot in the L3 and 0.98 out of it with AVX-512, but 1.04-1.06 out of it with
// AVX2 and 0.98-1.01 portable (BENCHMARKS.md): the AVX-512 build alone takes it.
enum class Scatter { slot_by_slot, node_by_node };

// The scatter of the batches of a range (BatchRange): batch by batch, the kept lanes' sums
// written to `kept` in order, the others added to y as `how` says. The batches with kept
// lanes are few (those on a surface between two threads' ranges): one comparison a batch
// finds them.
template <std::size_t N>
class RangeScatter {
 public:
  RangeScatter(const BatchRange<N>& range, double* kept, Scatter how = Scatter::slot_by_slot)
      : next_(range.kept.data()), last_(range.kept.data() + range.kept.size()), kept_(kept),
        by_node_(how == Scatter::node_by_node && !range.by_node.empty() ? range.by_node.data() : nullptr),
        begin_(range.begin) {}
  void operator()(std::size_t b, const typename ItemBatches<N>::Batch& batch, std::size_t lanes,
                  const double (&out)[N][kBatch], double* y) {
    if (next_ == last_ || next_->batch != b) {
      if (by_node_) scatter_by_node<N>(by_node_[b - begin_], batch, out, y);
      else scatter_batch<N>(batch, lanes, out, y);
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
  const BatchNodeSums<N>* by_node_;  // batch begin_'s, or null: no tables
  std::size_t begin_;
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
