// Quadrature rules on a tetrahedron (see tet_quadrature.hpp).
#include "mesh/tet_quadrature.hpp"

#include <cmath>
#include <cstddef>

#include "mesh/gauss_legendre.hpp"

namespace mesh {

TetQuadrature conical_product_rule(int n) {
  std::vector<double> node, weight;
  gauss_legendre(n, node, weight);
  // From [-1, 1] to [0, 1]: the weights then sum to 1.
  for (std::size_t i = 0; i < node.size(); ++i) {
    node[i] = (node[i] + 1) / 2;
    weight[i] /= 2;
  }
  TetQuadrature rule;
  for (std::size_t i = 0; i < node.size(); ++i)
    for (std::size_t j = 0; j < node.size(); ++j)
      for (std::size_t k = 0; k < node.size(); ++k) {
        const double u = node[i], v = node[j], w = node[k];
        const double x = u, y = v * (1 - u), z = w * (1 - u) * (1 - v);
        rule.bary.push_back({1 - x - y - z, x, y, z});
        // 6: the reference tetrahedron's volume is 1/6, and weights are volume fractions.
        rule.weight.push_back(6 * weight[i] * weight[j] * weight[k] * (1 - u) * (1 - u) * (1 - v));
      }
  return rule;
}

TetQuadrature four_point_rule() {
  const double root5 = std::sqrt(5.0);
  const double a = (5 + 3 * root5) / 20, b = (5 - root5) / 20;
  TetQuadrature rule;
  for (std::size_t k = 0; k < 4; ++k) {
    std::array<double, 4> bary{b, b, b, b};
    bary[k] = a;
    rule.bary.push_back(bary);
    rule.weight.push_back(0.25);
  }
  return rule;
}

}  // namespace mesh
