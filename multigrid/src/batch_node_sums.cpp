// A batch's sums grouped by node (batch_node_sums.hpp).
#include "multigrid/batch_node_sums.hpp"

#include <stdexcept>

namespace mg {

template <std::size_t N>
std::vector<BatchNodeSums<N>> group_batch_sums(const ItemBatches<N>& items, std::size_t begin, std::size_t end,
                                               std::size_t slots) {
  constexpr std::uint8_t kNone = 0xff;
  static_assert(N * kBatch < kNone, "a batch's positions must fit a byte");
  std::vector<BatchNodeSums<N>> tables(end - begin);
  std::vector<std::uint8_t> local(slots, kNone);  // [slot]: its node's index in the batch, while in it
  for (std::size_t b = begin; b < end; ++b) {
    const typename ItemBatches<N>::Batch& batch = items.batches[b];
    const std::size_t lanes = items.lanes(b);
    // The batch's nodes in the order of their first position; each position's node.
    // Without a branch on whether a node is new (about half the positions are, unpredictably):
    // `first` and `count` are written at `nodes` either way, and `nodes` moves on only for a
    // new one.
    std::uint8_t first[N * kBatch], count[N * kBatch], node_at[N * kBatch];
    std::size_t nodes = 0;
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t l = 0; l < lanes; ++l) {
        const std::uint32_t slot = batch[n][l];
        if (slot >= slots) throw std::logic_error("group_batch_sums: an item names a slot past the level's");
        const std::uint8_t seen = local[slot];
        const bool added = seen == kNone;
        const std::uint8_t k = added ? static_cast<std::uint8_t>(nodes) : seen;
        const std::uint8_t position = static_cast<std::uint8_t>(kBatch * n + l);
        first[nodes] = position;  // kept only if the node is new: else the next new one's
        count[nodes] = 0;
        local[slot] = k;
        node_at[position] = k;
        ++count[k];
        nodes += added;
      }
    bool twice = false;
    for (std::size_t k = 0; k < nodes; ++k) {
      local[batch[first[k] / kBatch][first[k] % kBatch]] = kNone;
      twice = twice || count[k] > kBatch;
    }
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
