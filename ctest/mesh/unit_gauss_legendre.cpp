// Gauss-Legendre on [-1, 1] (gauss_legendre.hpp): nodes and weights against the closed forms.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "mesh/gauss_legendre.hpp"

using namespace mesh;

TEST_CASE("Gauss-Legendre nodes and weights against the closed forms", "[gauss_legendre]") {
  std::vector<double> x, w;
  gauss_legendre(2, x, w);
  CHECK(x[0] == Approx(-1 / std::sqrt(3.0)).epsilon(1e-15));
  CHECK(x[1] == Approx(1 / std::sqrt(3.0)).epsilon(1e-15));
  CHECK(w[0] == Approx(1).epsilon(1e-15));
  gauss_legendre(3, x, w);
  CHECK(x[0] == Approx(-std::sqrt(0.6)).epsilon(1e-15));
  CHECK(x[1] == Approx(0).margin(1e-15));
  CHECK(w[0] == Approx(5.0 / 9).epsilon(1e-15));
  CHECK(w[1] == Approx(8.0 / 9).epsilon(1e-15));
  gauss_legendre(1, x, w);
  CHECK(x[0] == 0.0);
  CHECK(w[0] == 2.0);
}
