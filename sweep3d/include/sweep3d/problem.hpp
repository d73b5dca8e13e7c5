// The physics of the benchmark (spec §2): uniform mesh, one material, a unit source in a
// box, S4/S6 quadrature with P0/P1 scattering, vacuum or reflective low faces.
#pragma once
#include <array>

#include "sweep3d/deck.hpp"
#include "sweep3d/quadrature.hpp"

namespace sweep3d {

struct Problem {
  Quadrature quad;
  int isct = 0;
  int nm = 1;                  // flux moments: 1 (P0) or 4 (P1)
  double sigma_t = 1.0;        // total cross-section
  double sigma_s0 = 0.5;       // isotropic scattering (moment 1)
  double sigma_s1 = 0.0;       // (2*1+1)*0.2 for P1 (moments 2..4)
  double di = 0, dj = 0, dk = 0;  // cell widths
  double hi = 0, hj = 0, hk = 0;  // 2/width
  // Source box per axis (I, J, K): global 1-based inclusive cell range (empty if lo > hi).
  std::array<int, 3> src_lo{}, src_hi{};
  // Low faces (i=1, j=1, k=1) reflective; high faces are always vacuum.
  bool refl_i = false, refl_j = false, refl_k = false;
};

Problem make_problem(const Deck& deck);

// Source range of one axis with global extent n and low-face flag bc (spec §2.3).
void source_range(int n, int bc, int& lo, int& hi);

}  // namespace sweep3d
