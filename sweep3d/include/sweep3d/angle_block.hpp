// Per octant and angle block, everything the cell solve needs per angle, precomputed once
// (the mesh is uniform, so the coefficients depend on the angle only). Arrays are laid out
// as SIMD lanes, one per angle of the block, padded to lane_stride(na) lanes; a padded lane
// is inert (c = 0, r = 0: its flux is exactly +-0, never negative, never accumulated).
#pragma once
#include "sweep3d/problem.hpp"

namespace sweep3d {

inline constexpr int kMaxLanes = 8;

// Lanes per angle in the face arrays and kernel vectors: na rounded up to 1, 2, 4 or 8.
constexpr int lane_stride(int na) { return na <= 1 ? 1 : na <= 2 ? 2 : na <= 4 ? 4 : 8; }

struct AngleBlock {
  int iq = 1;           // octant 1..8
  int si = -1, sj = -1, sk = -1;
  int m0 = 0;           // first angle of the block (0-based within the octant)
  int na = 1;           // angles in the block (mmi)
  int ls = 1;           // lane_stride(na)
  int nm = 1;           // flux moments
  alignas(64) double ci[kMaxLanes]{};   // mu*hi
  alignas(64) double cj[kMaxLanes]{};   // eta*hj
  alignas(64) double ck[kMaxLanes]{};   // tsi*hk
  alignas(64) double dl[kMaxLanes]{};   // ((sigma_t + ci) + cj) + ck
  alignas(64) double r[kMaxLanes]{};    // 1.0/dl
  alignas(64) double pn[3][kMaxLanes]{};  // pn(m, n) for n = 2, 3, 4: si*mu, sj*eta, sk*tsi
  alignas(64) double pnw[kMaxLanes][4]{};  // pn(m, n)*w(m) for n = 1..4 (n = 1: w(m))
  double wmu[kMaxLanes]{}, weta[kMaxLanes]{}, wtsi[kMaxLanes]{};  // (s*cosine)*w: leakages
};

// Angle block mo (1-based) of mmi angles for octant iq.
AngleBlock make_angle_block(const Problem& problem, int iq, int mo, int mmi);

}  // namespace sweep3d
