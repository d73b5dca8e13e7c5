// Quadrature on a tetrahedron (tet_quadrature.hpp): the conical product rule and the
// symmetric 4-point rule have positive weights summing to 1 and are exact to their degree
// (2n - 3, and 2) but not beyond.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>

#include "mesh/tet_quadrature.hpp"

using namespace mesh;

namespace {

double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

// int over the reference tetrahedron of x^a y^b z^c = a! b! c! / (a + b + c + 3)!, and the
// rule's value (the reference volume is 1/6).
double rule_integral(const TetQuadrature& rule, int a, int b, int c) {
  double s = 0;
  for (std::size_t p = 0; p < rule.weight.size(); ++p)
    s += rule.weight[p] * std::pow(rule.bary[p][1], a) * std::pow(rule.bary[p][2], b) * std::pow(rule.bary[p][3], c);
  return s / 6;
}
double exact_integral(int a, int b, int c) { return factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 3); }

// Positive weights summing to 1, barycentric coordinates summing to 1, and every monomial of
// degree <= `degree` integrated to within `tolerance` (relative).
void check_rule_exact_to(const TetQuadrature& rule, int degree, double tolerance) {
  double sum = 0;
  for (std::size_t p = 0; p < rule.weight.size(); ++p) {
    REQUIRE(rule.weight[p] > 0);
    const auto& b = rule.bary[p];
    REQUIRE(b[0] + b[1] + b[2] + b[3] == Approx(1).epsilon(0).margin(1e-15));
    sum += rule.weight[p];
  }
  CHECK(sum == Approx(1).epsilon(1e-14));
  for (int a = 0; a <= degree; ++a)
    for (int b = 0; a + b <= degree; ++b)
      for (int c = 0; a + b + c <= degree; ++c) {
        INFO("x^" << a << " y^" << b << " z^" << c);
        CHECK(rule_integral(rule, a, b, c) == Approx(exact_integral(a, b, c)).epsilon(tolerance));
      }
}

}  // namespace

TEST_CASE("conical product rule: exact to degree 2n - 3, not beyond", "[tet_quadrature]") {
  const TetQuadrature rule = conical_product_rule(4);
  REQUIRE(rule.weight.size() == 64);
  check_rule_exact_to(rule, 5, 1e-13);
  // Degree 6 in x: 6! / 9! = 1/504, missed (the claim is tight).
  CHECK(std::abs(rule_integral(rule, 6, 0, 0) - 1.0 / 504) > 1e-9);
}

TEST_CASE("four-point rule: exact to degree 2, not 3", "[tet_quadrature]") {
  const TetQuadrature rule = four_point_rule();
  REQUIRE(rule.weight.size() == 4);
  check_rule_exact_to(rule, 2, 1e-14);
  // Degree 3: x^3 integrates to 3! / 6! = 1/120 and x y z to 1/720; the rule misses both.
  CHECK(std::abs(rule_integral(rule, 3, 0, 0) - 1.0 / 120) > 1e-5);
  CHECK(std::abs(rule_integral(rule, 1, 1, 1) - 1.0 / 720) > 1e-5);
}
