// Level-symmetric S4 / S6 quadrature of the original (spec §2.4) and the octant signs
// (spec §2.5). The third cosine is computed, not tabulated, in the original's order.
#pragma once
#include <array>

namespace sweep3d {

inline constexpr int kMaxAngles = 6;  // per octant (S6)

struct Quadrature {
  int mm = 0;   // angles per octant: 3 (S4) or 6 (S6)
  int isn = 0;  // 4 or 6
  std::array<double, kMaxAngles> mu{}, eta{}, tsi{}, w{};  // positive cosines, weights
};

// mm must be 3 or 6 (the deck is validated before).
Quadrature make_quadrature(int mm);

// Direction signs of octant iq = 1..8: with b = iq-1, +1 if the bit is set, else -1
// (I: bit 2, J: bit 1, K: bit 0). Octants are swept in the order 1..8.
struct Octant {
  int si, sj, sk;
};
constexpr Octant octant(int iq) {
  const int b = iq - 1;
  return {(b & 4) ? 1 : -1, (b & 2) ? 1 : -1, (b & 1) ? 1 : -1};
}

}  // namespace sweep3d
