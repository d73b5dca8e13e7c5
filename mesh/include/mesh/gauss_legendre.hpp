// Gauss-Legendre quadrature on [-1, 1], computed rather than tabulated: the 1-D rule that
// the tetrahedral rule (tet_quadrature.hpp) and tycho's product angular sets are built from.
#pragma once
#include <vector>

namespace mesh {

// The n Gauss-Legendre nodes (ascending) and weights (sum 2) on [-1, 1], n >= 1.
void gauss_legendre(int n, std::vector<double>& nodes, std::vector<double>& weights);

}  // namespace mesh
