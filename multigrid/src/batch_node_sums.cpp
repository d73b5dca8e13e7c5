// A batch's sums grouped by node (batch_node_sums.hpp).
#include "multigrid/batch_node_sums.hpp"

#include <stdexcept>

namespace mg {

template <std::size_t N>
std::vector<BatchNodeSums<N>> group_batch_sums(const ItemBatches<N>& items, std::size_t begin, std::size_t end,
                                               std::size_t slots) {
  static_assert(N * kBatch <= 256, "a batch's positions must fit a byte");
  std::vector<BatchNodeSums<N>> tables(end - begin);
  // [slot]: the first position of its node in the batch at hand. Every position writes it (in
  // reverse, so the first writes last) before any reads it, so it needs no clearing after a
  // batch and no sentinel, and no read waits on a store to its own slot. (It was read, written
  // and cleared in one pass: the splits of `--cube 8 --grids 4`'s levels took 7.5 ms at one
  // process, now 6.85, AMD EPYC Zen 5; most of the rest is the grouping below.)
  std::vector<std::uint8_t> first_of(slots);
  for (std::size_t b = begin; b < end; ++b) {
    const typename ItemBatches<N>::Batch& batch = items.batches[b];
    const std::size_t lanes = items.lanes(b);
    for (std::size_t n = N; n-- > 0;)
      for (std::size_t l = lanes; l-- > 0;) {
        const std::uint32_t slot = batch[n][l];
        if (slot >= slots) throw std::logic_error("group_batch_sums: an item names a slot past the level's");
        first_of[slot] = static_cast<std::uint8_t>(kBatch * n + l);
      }
    // The batch's nodes numbered in the order of their first position; each position's node.
    // Without a branch on whether a node is new (about half the positions are, unpredictably).
    std::uint8_t count[N * kBatch] = {}, node_at[N * kBatch];
    std::size_t nodes = 0;
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t l = 0; l < lanes; ++l) {
        const std::uint8_t position = static_cast<std::uint8_t>(kBatch * n + l);
        const std::uint8_t at = first_of[batch[n][l]];
        const bool added = at == position;
        const std::uint8_t k = added ? static_cast<std::uint8_t>(nodes) : node_at[at];
        node_at[position] = k;
        ++count[k];
        nodes += added;
      }
    bool twice = false;
    for (std::size_t k = 0; k < nodes; ++k) twice = twice || count[k] > kBatch;
    if (twice) return {};
    BatchNodeSums<N>& t = tables[b - begin];
    for (std::size_t k = 0; k < nodes; ++k) ++t.nodes[count[k] - 1];
    // Where each group of nodes starts in `order`, then where each node does.
    std::size_t at[kBatch + 1];
    at[0] = 0;
    for (std::size_t c = 1; c <= kBatch; ++c) at[c] = at[c - 1] + c * t.nodes[c - 1];
    std::uint8_t next[N * kBatch];
    for (std::size_t k = 0; k < nodes; ++k) {
      next[k] = static_cast<std::uint8_t>(at[count[k] - 1]);
      at[count[k] - 1] += count[k];
    }
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t l = 0; l < lanes; ++l)
        t.order[next[node_at[kBatch * n + l]]++] = static_cast<std::uint8_t>(kBatch * n + l);
  }
  return tables;
}

template std::vector<BatchNodeSums<4>> group_batch_sums(const ItemBatches<4>&, std::size_t, std::size_t, std::size_t);
template std::vector<BatchNodeSums<10>> group_batch_sums(const ItemBatches<10>&, std::size_t, std::size_t,
                                                         std::size_t);

}  // namespace mg
