// A level's families and loose cells as the smoother's cell loop reads them (p1_operator.hpp):
// in batches of eight consecutive items, slot by slot.
//
// Batch b holds items 8 b .. 8 b + 7 (cells or families, in the level's Morton order) and
// stores their node slots slot-major, slot[n][l], so slot n of all eight is one 32-byte load
// and a slot's eight lanes are one register of the AVX-512 build. Every build scatters a
// batch slot by slot (p1_cells.hpp), so consecutive adds go to one slot of neighbouring items,
// seldom the same node: no store-to-load chain, which the cell-by-cell order once ran into
// (half as fast); and the items walk the Morton order as one stream, which out of the
// last-level cache ran 1.2 times faster than eight streams far apart (BENCHMARKS.md). Only
// the last batch may be short; its dead lanes repeat lane 0's item, which every build may
// gather and compute but none scatters.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mg {

inline constexpr std::size_t kBatch = 8;

template <std::size_t N>
struct ItemBatches {
  using Batch = std::array<std::array<std::uint32_t, kBatch>, N>;  // [slot][lane]
  std::size_t items = 0;       // how many items: the live lanes of all batches
  std::vector<Batch> batches;  // ceil(items / 8) of them
  // The live lanes of batch b (a prefix).
  std::size_t lanes(std::size_t b) const { return items - kBatch * b < kBatch ? items - kBatch * b : kBatch; }
};

// The n items of N node slots each, batched.
template <std::size_t N>
ItemBatches<N> batch_items(const std::array<std::uint32_t, N>* items, std::size_t n);

// Item i's N slots.
template <std::size_t N>
std::array<std::uint32_t, N> item_of(const ItemBatches<N>& b, std::size_t i) {
  const typename ItemBatches<N>::Batch& batch = b.batches[i / kBatch];
  std::array<std::uint32_t, N> item;
  for (std::size_t n = 0; n < N; ++n) item[n] = batch[n][i % kBatch];
  return item;
}

// One item more, written straight into its batch (for a level that makes its items in
// order): the batches are then batch_items's once fill_dead_lanes has run.
template <std::size_t N>
void append_item(ItemBatches<N>& b, const std::array<std::uint32_t, N>& item) {
  const std::size_t lane = b.items % kBatch;
  if (lane == 0) b.batches.emplace_back();
  for (std::size_t n = 0; n < N; ++n) b.batches.back()[n][lane] = item[n];
  ++b.items;
}

// The last batch's dead lanes set to lane 0's item, as batch_items sets them.
template <std::size_t N>
void fill_dead_lanes(ItemBatches<N>& b) {
  if (b.batches.empty()) return;
  typename ItemBatches<N>::Batch& last = b.batches.back();
  for (std::size_t l = b.lanes(b.batches.size() - 1); l < kBatch; ++l)
    for (std::size_t n = 0; n < N; ++n) last[n][l] = last[n][0];
}

// The first `keep` items only (at most as many as there are).
template <std::size_t N>
void keep_items(ItemBatches<N>& b, std::size_t keep) {
  if (keep >= b.items) return;
  b.items = keep;
  b.batches.resize((keep + kBatch - 1) / kBatch);
  fill_dead_lanes(b);
}

}  // namespace mg
