// A batch's sums grouped by node, for the AVX-512 cell loop's scatter (p1_cells.hpp).
//
// Every build adds a batch's sums to y slot by slot, lane by lane (item_batches.hpp): 80 a
// batch of eight families, which name only about 40 distinct nodes (1 to 6 sums each). A
// node's bits depend on the order of its own additions only, not on how they interleave
// with other nodes', so the scatter may take the batch node by node instead: load y once,
// add the node's sums in their order in a register, store y once. That keeps every bit and
// drops the chains of stores and reloads through y (a node's sums come a slot apart in the
// slot-by-slot order, close enough that each add waits for the previous one's store).
//
// The table names positions, not nodes: position p = 8 n + l is slot n, lane l of the batch,
// whose node the batch already holds (batch[n][l], read anyway for the loads of u). The nodes
// are grouped by how many sums they take, so the loop over a group has a fixed trip count.
// A table is 88 bytes a batch of families (1.4 a cell), streamed beside the batch's 320.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "multigrid/item_batches.hpp"

namespace mg {

template <std::size_t N>
struct BatchNodeSums {
  // The positions of the batch's live lanes, node by node: first the nodes that take one
  // sum, then those that take two, and so on; a node's positions in increasing order (its
  // additions' order in the slot-by-slot scatter). A node's first position names it.
  std::array<std::uint8_t, N * kBatch> order{};
  // nodes[c - 1]: how many nodes take c sums. An item names each of its nodes once, so no
  // node takes more than kBatch.
  std::array<std::uint8_t, kBatch> nodes{};
};

// The tables of batches [begin, end) of `items`, whose slots are below `slots`; empty if a
// node takes more than kBatch sums in a batch (an item naming it twice could): the loop then
// scatters slot by slot.
template <std::size_t N>
std::vector<BatchNodeSums<N>> group_batch_sums(const ItemBatches<N>& items, std::size_t begin, std::size_t end,
                                               std::size_t slots);

}  // namespace mg
