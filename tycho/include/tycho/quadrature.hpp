// Angular quadratures on the unit sphere for the discrete-ordinates sweep: the
// level-symmetric LQn sets S2-S16 and a product (Gauss-Legendre x equal-weight azimuth) set.
//
// Normalisation: the weights of a set sum to 4 pi (the scalar flux is sum_d w_d psi_d).
// Directions are unit vectors; octant bit 0 is set when x < 0, bit 1 when y < 0, bit 2 when
// z < 0 (octant 0 is the all-positive one). Both kinds are symmetric under the reflections in
// the three coordinate planes, so every octant holds the same number of directions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tycho/mesh_types.hpp"

namespace tycho {

struct Quadrature {
  std::string name;                  // "S8", "product 4x8"
  std::vector<Vec3> omega;           // unit directions
  std::vector<double> weight;        // sum 4 pi
  std::vector<std::uint8_t> octant;  // 0-7, see above
  std::size_t size() const { return omega.size(); }
};

// The octant of a direction (ties, a zero component, count as positive).
std::uint8_t octant_of(const Vec3& omega);

// Level-symmetric S_N, N in {2, 4, ..., 16}: N(N+2) directions. `source` names the option
// or file the order came from, for the error (InputError(source, "", "...") otherwise).
Quadrature level_symmetric(int order, const std::string& source);

// Product set: `polar` Gauss-Legendre nodes in mu = Omega.z over [-1, 1] (even, >= 2) times
// `azimuthal` equally spaced, equally weighted angles phi_k = (k + 1/2) 2 pi / azimuthal
// (a multiple of 4, >= 4, so no direction lies on a coordinate plane). polar x azimuthal
// directions; exact for polynomials in mu of degree 2 polar - 1 times trigonometric
// polynomials in phi of degree below azimuthal.
Quadrature product_quadrature(int polar, int azimuthal, const std::string& source);

}  // namespace tycho
