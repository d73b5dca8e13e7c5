// The largest eigenvalue of a symmetric tridiagonal matrix (ritz_value.hpp), which sets the
// Chebyshev smoother's interval from the Lanczos coefficients: against closed forms.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "multigrid/ritz_value.hpp"

using Catch::Matchers::WithinRel;

TEST_CASE("largest eigenvalue of tridiag(-1, 2, -1) is 2 + 2 cos(pi / (n + 1))") {
  const double pi = std::acos(-1.0);
  for (std::size_t n : {1u, 2u, 3u, 6u, 17u, 64u}) {
    const std::vector<double> diag(n, 2.0), off(n - 1, -1.0);
    INFO("n = " << n);
    CHECK_THAT(mg::largest_tridiagonal_eigenvalue(diag, off), WithinRel(2.0 + 2.0 * std::cos(pi / static_cast<double>(n + 1)), 1e-14));
  }
}

TEST_CASE("largest eigenvalue: a diagonal matrix's largest entry, wherever it is; signs of the coupling do not matter") {
  CHECK(mg::largest_tridiagonal_eigenvalue({0.5, 3.25, -1.0, 2.0}, {0.0, 0.0, 0.0}) == 3.25);
  // [[a, b], [b, c]]: (a + c)/2 + sqrt(((a - c)/2)^2 + b^2)
  const double a = 1.5, b = 0.75, c = -0.5;
  const double exact = 0.5 * (a + c) + std::sqrt(0.25 * (a - c) * (a - c) + b * b);
  CHECK_THAT(mg::largest_tridiagonal_eigenvalue({a, c}, {b}), WithinRel(exact, 1e-14));
  CHECK_THAT(mg::largest_tridiagonal_eigenvalue({a, c}, {-b}), WithinRel(exact, 1e-14));
}

TEST_CASE("largest eigenvalue: a Lanczos matrix of a known spectrum") {
  // The Jacobi matrix of the Chebyshev weight of the second kind on [0, 4], n = 5: diagonal
  // 2, couplings 1; eigenvalues 2 + 2 cos(k pi / 6), the largest 2 + sqrt(3).
  CHECK_THAT(mg::largest_tridiagonal_eigenvalue({2, 2, 2, 2, 2}, {1, 1, 1, 1}), WithinRel(2.0 + std::sqrt(3.0), 1e-14));
}

TEST_CASE("largest eigenvalue: sizes that do not fit are refused") {
  CHECK_THROWS_AS(mg::largest_tridiagonal_eigenvalue({}, {}), std::invalid_argument);
  CHECK_THROWS_AS(mg::largest_tridiagonal_eigenvalue({1.0, 2.0}, {}), std::invalid_argument);
}
