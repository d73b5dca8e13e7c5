// The largest eigenvalue of a symmetric tridiagonal matrix: the Lanczos estimate of
// lambda_max(D^-1 A) that the Chebyshev smoother's interval is set from (cycle.cpp).
#pragma once
#include <vector>

namespace mg {

// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal `diag` (n values)
// and off-diagonal `off` (n - 1 values), by bisection on Sturm counts between Gershgorin's
// bounds, to the last bits the bisection can resolve. Needs n >= 1 and finite entries.
double largest_tridiagonal_eigenvalue(const std::vector<double>& diag, const std::vector<double>& off);

}  // namespace mg
