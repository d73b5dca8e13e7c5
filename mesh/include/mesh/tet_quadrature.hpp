// Quadrature on a tetrahedron, for integrals of smooth functions over cells (tycho's
// manufactured-solution moments and error norms, tycho/mms.hpp; multigrid's P1 operator).
// Two kinds: the conical product rule of any degree, and the symmetric 4-point rule of
// degree 2 (a P1 load's: MFEM's default for it).
//
// The conical product rule: the reference tetrahedron is the image of the unit cube under
// the collapsed (Duffy) map x = u, y = v (1 - u), z = w (1 - u) (1 - v), Jacobian
// (1 - u)^2 (1 - v), and the cube is integrated with n Gauss-Legendre points per axis. A
// polynomial of degree p in x, y, z becomes one of degree p + 2 in u, p + 1 in v, p in w,
// so n points per axis integrate every polynomial of degree <= 2n - 3 exactly. Built from
// gauss_legendre (gauss_legendre.hpp), so no tabulated constants; the weights are positive.
#pragma once
#include <array>
#include <vector>

namespace mesh {

struct TetQuadrature {
  // Per point its 4 barycentric coordinates: the point is sum_k bary[k] x_k for the
  // cell's nodes x_0..x_3, and bary[k] is the linear basis function of node k there.
  std::vector<std::array<double, 4>> bary;
  // Per point the fraction of the volume it stands for (the sum is 1): the integral over
  // a cell of volume V is V sum_p weight[p] g(x_p).
  std::vector<double> weight;
};

// The conical product rule with n >= 1 points per axis (n^3 points, exact to degree 2n - 3,
// degree 0 for n = 1).
TetQuadrature conical_product_rule(int n);

// The symmetric 4-point rule (Hammer, Marlowe & Stroud 1956; MFEM's order-2 rule on a
// tetrahedron): point k at lambda_k = a and the other three at b, a = (5 + 3 sqrt 5) / 20,
// b = (5 - sqrt 5) / 20, each of weight 1/4; exact to degree 2, not 3.
TetQuadrature four_point_rule();

}  // namespace mesh
