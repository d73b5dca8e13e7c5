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

}  // namespace mg
