// One coordinate of a 63-bit Morton (Z-order) key: the sweeps' and the multigrid numbering's
// cell and node orders interleave three of these.
#pragma once
#include <cstdint>

namespace mesh {

// Bits 0-20 of v moved to bits 0, 3, 6, ..., 60 by masks (5 steps, not a loop over 63 bits);
// bits above 20 are dropped.
inline std::uint64_t morton_spread_bits(std::uint64_t v) {
  v &= 0x1FFFFFu;
  v = (v | v << 32) & 0x1F00000000FFFFull;
  v = (v | v << 16) & 0x1F0000FF0000FFull;
  v = (v | v << 8) & 0x100F00F00F00F00Full;
  v = (v | v << 4) & 0x10C30C30C30C30C3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

}  // namespace mesh
