// Gauss-Legendre nodes and weights by Newton on P_n (see gauss_legendre.hpp).
#include "mesh/gauss_legendre.hpp"

#include <cmath>
#include <cstddef>
#include <numbers>

namespace mesh {

void gauss_legendre(int n, std::vector<double>& nodes, std::vector<double>& weights) {
  nodes.assign(static_cast<std::size_t>(n), 0.0);
  weights.assign(static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) {
    // Newton from the Chebyshev-like first guess; converges to every root for all n.
    double x = -std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
    double dp = 1;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const double dx = p1 / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    nodes[static_cast<std::size_t>(i)] = x;
    weights[static_cast<std::size_t>(i)] = 2 / ((1 - x * x) * dp * dp);
  }
}

}  // namespace mesh
