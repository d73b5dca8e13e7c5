#include "sweep3d/problem.hpp"

namespace sweep3d {

void source_range(int n, int bc, int& lo, int& hi) {
  const int n3 = n >= 3 ? (n + 1) / 3 : 0;
  if (bc == 0) {  // vacuum: the central third
    lo = 1 + n3;
    hi = n - n3;
  } else {  // reflective: the third next to the mirror
    lo = 1;
    hi = n3;
  }
}

Problem make_problem(const Deck& d) {
  Problem p;
  p.quad = make_quadrature(d.mm);
  p.isct = d.isct;
  p.nm = d.isct == 1 ? 4 : 1;
  p.sigma_s1 = d.isct == 1 ? static_cast<double>(2 * 1 + 1) * 0.2 : 0.0;
  p.di = d.dx;
  p.dj = d.dy;
  p.dk = d.dz;
  p.hi = 2.0 / d.dx;
  p.hj = 2.0 / d.dy;
  p.hk = 2.0 / d.dz;
  source_range(d.it_g, d.ibc, p.src_lo[0], p.src_hi[0]);
  source_range(d.jt_g, d.jbc, p.src_lo[1], p.src_hi[1]);
  source_range(d.kt, d.kbc, p.src_lo[2], p.src_hi[2]);
  p.refl_i = d.ibc != 0;
  p.refl_j = d.jbc != 0;
  p.refl_k = d.kbc != 0;
  return p;
}

}  // namespace sweep3d
