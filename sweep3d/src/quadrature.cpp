#include "sweep3d/quadrature.hpp"

#include <cmath>

namespace sweep3d {

Quadrature make_quadrature(int mm) {
  Quadrature q;
  q.mm = mm;
  if (mm == 6) {
    q.isn = 6;
    const double a = 0.23009194, b = 0.68813432, c = 0.94557676;
    const double wa = 0.16944656 / 8.0, wb = 0.16388677 / 8.0;
    q.mu = {a, b, a, c, b, a};
    q.eta = {c, b, b, a, a, a};
    q.w = {wa, wb, wb, wa, wb, wa};
  } else {
    q.isn = 4;
    const double p = 0.30163878, r = 0.90444905;
    const double w = (1.0 / 3.0) / 8.0;
    q.mu = {p, r, p, 0, 0, 0};
    q.eta = {r, p, p, 0, 0, 0};
    q.w = {w, w, w, 0, 0, 0};
  }
  for (int m = 0; m < mm; ++m) q.tsi[m] = std::sqrt((1.0 - q.mu[m] * q.mu[m]) - q.eta[m] * q.eta[m]);
  return q;
}

}  // namespace sweep3d
