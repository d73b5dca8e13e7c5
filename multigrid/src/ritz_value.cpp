// Largest eigenvalue of a symmetric tridiagonal matrix (ritz_value.hpp).
#include "multigrid/ritz_value.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace mg {

namespace {

// How many eigenvalues are below x: the negative pivots of T - x I's LDL^T factorisation
// (Sturm's sequence, in the form that cannot overflow on a zero pivot).
std::size_t eigenvalues_below(const std::vector<double>& diag, const std::vector<double>& off, double x) {
  std::size_t below = 0;
  double pivot = 1.0;
  for (std::size_t i = 0; i < diag.size(); ++i) {
    const double coupling = i == 0 ? 0.0 : off[i - 1] * off[i - 1];
    pivot = diag[i] - x - (i == 0 ? 0.0 : coupling / pivot);
    if (pivot == 0.0) pivot = -1e-300;  // x is an eigenvalue of the leading block: count it below
    if (pivot < 0) ++below;
  }
  return below;
}

}  // namespace

double largest_tridiagonal_eigenvalue(const std::vector<double>& diag, const std::vector<double>& off) {
  const std::size_t n = diag.size();
  if (n == 0 || off.size() + 1 != n) throw std::invalid_argument("largest_tridiagonal_eigenvalue: n diagonal and n-1 off-diagonal values needed");
  // Gershgorin: every eigenvalue lies within [lo, hi].
  double lo = diag[0], hi = diag[0];
  for (std::size_t i = 0; i < n; ++i) {
    const double r = (i > 0 ? std::fabs(off[i - 1]) : 0.0) + (i + 1 < n ? std::fabs(off[i]) : 0.0);
    lo = std::min(lo, diag[i] - r);
    hi = std::max(hi, diag[i] + r);
  }
  // Bisect for the point below which all n lie but one: until the interval stops shrinking.
  for (int step = 0; step < 200; ++step) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (eigenvalues_below(diag, off, mid) == n) hi = mid;
    else lo = mid;
  }
  return hi;
}

}  // namespace mg
