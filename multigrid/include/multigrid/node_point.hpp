// A node's coordinates as the smoother reads them (p1_operator.hpp).
#pragma once

namespace mg {

// Padded to 32 bytes and aligned to them, so that a corner is one aligned vector load and
// four corners transpose in registers.
struct alignas(32) NodePoint {
  double x, y, z, unused;
};
static_assert(sizeof(NodePoint) == 32, "the AVX2 loop loads a node as one 32-byte vector");

}  // namespace mg
