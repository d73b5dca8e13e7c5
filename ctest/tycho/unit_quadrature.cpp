// Quadratures: counts, weights, symmetry, exact moments and values from the published tables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "../input_error_text.hpp"
#include "tycho/quadrature.hpp"

using namespace tycho;

namespace {

constexpr double kPi = std::numbers::pi;

double moment(const Quadrature& q, int a, int b, int c) {
  double s = 0;
  for (std::size_t d = 0; d < q.size(); ++d) {
    s += q.weight[d] * std::pow(q.omega[d].x, a) * std::pow(q.omega[d].y, b) * std::pow(q.omega[d].z, c);
  }
  return s;
}

// The integral over the sphere of x^a y^b z^c, a, b, c even.
double sphere_moment(int a, int b, int c) {
  return 2 * std::tgamma((a + 1) / 2.0) * std::tgamma((b + 1) / 2.0) * std::tgamma((c + 1) / 2.0) /
         std::tgamma((a + b + c + 3) / 2.0);
}

bool has_direction(const Quadrature& q, const Vec3& v, double w) {
  for (std::size_t d = 0; d < q.size(); ++d) {
    if (std::abs(q.omega[d].x - v.x) < 1e-14 && std::abs(q.omega[d].y - v.y) < 1e-14 &&
        std::abs(q.omega[d].z - v.z) < 1e-14 && std::abs(q.weight[d] - w) < 1e-14)
      return true;
  }
  return false;
}

void check_common(const Quadrature& q, std::size_t count) {
  REQUIRE(q.size() == count);
  REQUIRE(q.weight.size() == count);
  REQUIRE(q.octant.size() == count);
  double sum = 0;
  std::array<int, 8> per_octant{};
  for (std::size_t d = 0; d < q.size(); ++d) {
    const Vec3& o = q.omega[d];
    CHECK(o.x * o.x + o.y * o.y + o.z * o.z == Approx(1).epsilon(1e-14));
    CHECK(q.weight[d] > 0);
    CHECK(q.octant[d] == octant_of(o));
    ++per_octant[q.octant[d]];
    sum += q.weight[d];
    // Every octant is a reflection of the first.
    if (q.octant[d] == 0) {
      for (int r = 1; r < 8; ++r) {
        const Vec3 m{(r & 1) ? -o.x : o.x, (r & 2) ? -o.y : o.y, (r & 4) ? -o.z : o.z};
        CHECK(has_direction(q, m, q.weight[d]));
      }
    }
  }
  for (int o = 0; o < 8; ++o) CHECK(per_octant[static_cast<std::size_t>(o)] == static_cast<int>(count / 8));
  CHECK(sum == Approx(4 * kPi).epsilon(1e-14));
  // Odd moments vanish by the symmetry.
  CHECK(moment(q, 1, 0, 0) == Approx(0).margin(1e-14));
  CHECK(moment(q, 0, 1, 1) == Approx(0).margin(1e-14));
  CHECK(moment(q, 3, 0, 0) == Approx(0).margin(1e-14));
  CHECK(moment(q, 1, 1, 1) == Approx(0).margin(1e-14));
  CHECK(moment(q, 2, 1, 0) == Approx(0).margin(1e-14));
}

// The first octant's distinct point weights in the table's normalisation (octant sum 1),
// ascending, each compared with the table's 7 digits.
void check_point_weights(const Quadrature& q, std::vector<double> table) {
  std::vector<double> found;
  for (std::size_t d = 0; d < q.size(); ++d) {
    const double w = q.weight[d] / (kPi / 2);
    if (q.octant[d] == 0 && std::none_of(found.begin(), found.end(), [&](double f) { return std::abs(f - w) < 1e-9; }))
      found.push_back(w);
  }
  std::sort(found.begin(), found.end());
  std::sort(table.begin(), table.end());
  REQUIRE(found.size() == table.size());
  for (std::size_t i = 0; i < found.size(); ++i) CHECK(found[i] == Approx(table[i]).margin(1.5e-7));
}

}  // namespace

TEST_CASE("level-symmetric sets: N(N+2) unit directions, weights 4 pi, octants reflected, even moments exact",
          "[quadrature]") {
  for (int n = 2; n <= 16; n += 2) {
    INFO("S" << n);
    const Quadrature q = level_symmetric(n, "--sn");
    CHECK(q.name == std::string("S").append(std::to_string(n)));
    check_common(q, static_cast<std::size_t>(n * (n + 2)));
    CHECK(moment(q, 2, 0, 0) == Approx(4 * kPi / 3).epsilon(1e-13));
    CHECK(moment(q, 0, 0, 2) == Approx(4 * kPi / 3).epsilon(1e-13));
    // From S12 on the mixed conditions outnumber the point classes and hold only for the exact
    // mu_1; the table's 7 digits leave relative residuals near 1e-7 (7.2e-8 measured).
    const double tolerance = n <= 10 ? 1e-11 : 2e-7;
    for (int degree = 4; degree <= n - 2; degree += 2)
      for (int a = 0; a <= degree; a += 2)
        for (int b = 0; a + b <= degree; b += 2) {
          const int c = degree - a - b;
          INFO("mu^" << a << " eta^" << b << " xi^" << c);
          CHECK(moment(q, a, b, c) == Approx(sphere_moment(a, b, c)).epsilon(tolerance));
        }
  }
}

TEST_CASE("level-symmetric low moments against the values worked by hand", "[quadrature]") {
  const Quadrature s4 = level_symmetric(4, "--sn");
  CHECK(moment(s4, 4, 0, 0) == Approx(4 * kPi / 5).epsilon(1e-6));  // mu_1 is chosen for this
  CHECK(moment(s4, 2, 2, 0) == Approx(4 * kPi / 15).epsilon(1e-6));
  const Quadrature s8 = level_symmetric(8, "--sn");
  CHECK(s8.size() == 80);
  CHECK(moment(s8, 4, 0, 0) == Approx(4 * kPi / 5).epsilon(1e-12));
  CHECK(moment(s8, 2, 2, 0) == Approx(4 * kPi / 15).epsilon(1e-12));
  CHECK(moment(s8, 6, 0, 0) == Approx(4 * kPi / 7).epsilon(1e-12));
  CHECK(moment(s8, 4, 2, 0) == Approx(4 * kPi / 35).epsilon(1e-12));
  CHECK(moment(s8, 2, 2, 2) == Approx(4 * kPi / 105).epsilon(1e-12));
}

TEST_CASE("level-symmetric cosines and point weights equal Lewis & Miller's Table 4-1", "[quadrature]") {
  auto smallest_cosine = [](const Quadrature& q) {
    double m = 1;
    for (const Vec3& o : q.omega) m = std::min({m, std::abs(o.x), std::abs(o.y), std::abs(o.z)});
    return m;
  };
  CHECK(smallest_cosine(level_symmetric(4, "x")) == Approx(0.3500212).margin(1e-7));
  CHECK(smallest_cosine(level_symmetric(8, "x")) == Approx(0.2182179).margin(1e-7));
  // S8's levels: mu_4 = 0.9511897 (table).
  const Quadrature s8 = level_symmetric(8, "x");
  CHECK(std::max_element(s8.omega.begin(), s8.omega.end(), [](const Vec3& a, const Vec3& b) { return a.x < b.x; })->x ==
        Approx(0.9511897).margin(1e-7));
  // Point weights, per octant summing to 1 in the table's normalisation.
  check_point_weights(level_symmetric(4, "x"), {0.3333333});
  check_point_weights(level_symmetric(6, "x"), {0.1761263, 0.1572071});
  check_point_weights(level_symmetric(8, "x"), {0.1209877, 0.0907407, 0.0925926});
  check_point_weights(level_symmetric(10, "x"), {0.0893031, 0.0725292, 0.0450438, 0.0539281});
  check_point_weights(level_symmetric(12, "x"), {0.0707626, 0.0558811, 0.0373377, 0.0502819, 0.0258513});
}

TEST_CASE("a level-symmetric order that does not exist is refused naming the option and the allowed set",
          "[quadrature]") {
  const char* const allowed = "the level-symmetric order must be one of 2, 4, 6, 8, 10, 12, 14, 16, found ";
  auto expected = [&](const char* source, const char* found) {
    std::string s = source;
    s.append(": ").append(allowed).append(found);
    return s;
  };
  CHECK(input_error_text([] { level_symmetric(7, "--sn"); }) == expected("--sn", "7"));
  CHECK(input_error_text([] { level_symmetric(18, "--sn"); }) == expected("--sn", "18"));
  CHECK(input_error_text([] { level_symmetric(0, "deck.in"); }) == expected("deck.in", "0"));
  CHECK(input_error_text([] { level_symmetric(-2, "--sn"); }) == expected("--sn", "-2"));
}

TEST_CASE("product sets: polar x azimuthal directions, symmetric, exact for their degree", "[quadrature]") {
  const Quadrature q = product_quadrature(4, 8, "--product");
  CHECK(q.name == "product 4x8");
  check_common(q, 32);
  // 4 Gauss points: mu^6 exact (4pi/7); 8 azimuths: cos^4, cos^6 of phi exact.
  CHECK(moment(q, 0, 0, 6) == Approx(4 * kPi / 7).epsilon(1e-13));
  CHECK(moment(q, 2, 2, 2) == Approx(4 * kPi / 105).epsilon(1e-13));
  CHECK(moment(q, 4, 0, 2) == Approx(4 * kPi / 35).epsilon(1e-13));
  CHECK(moment(q, 2, 0, 0) == Approx(4 * kPi / 3).epsilon(1e-13));
  check_common(product_quadrature(2, 4, "--product"), 8);
}

TEST_CASE("product set counts outside the allowed set are refused naming the option", "[quadrature]") {
  CHECK(input_error_text([] { product_quadrature(3, 8, "--product"); }) ==
        "--product: the product quadrature's polar count must be even, 2 to 1000, found 3");
  CHECK(input_error_text([] { product_quadrature(0, 8, "--product"); }) ==
        "--product: the product quadrature's polar count must be even, 2 to 1000, found 0");
  CHECK(input_error_text([] { product_quadrature(4, 6, "--product"); }) ==
        "--product: the product quadrature's azimuthal count must be a multiple of 4, 4 to 4000, found 6");
  CHECK(input_error_text([] { product_quadrature(4, 0, "--product"); }) ==
        "--product: the product quadrature's azimuthal count must be a multiple of 4, 4 to 4000, found 0");
}
