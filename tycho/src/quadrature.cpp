// Level-symmetric and product quadratures (see quadrature.hpp).
//
// Level-symmetric LQn (Lewis & Miller, "Computational Methods of Neutron Transport", 1984,
// sec. 4-2 and Table 4-1; Carlson & Lathrop): the same N/2 cosines mu_1 < ... < mu_{N/2} on
// every axis, mu_1 from the published table and mu_i^2 = mu_1^2 + (i-1) 2 (1 - 3 mu_1^2)/(N-2),
// a direction (mu_i, mu_j, mu_k) for every i + j + k = N/2 + 2. Directions that are
// permutations of each other share a point weight. The point weights are COMPUTED here, not
// copied: the least-squares solution of the even-moment conditions on one octant (every
// monomial mu^a eta^b xi^c, a, b, c even, a + b + c <= N - 2, integrated exactly). Up to S10
// the system is consistent and the weights exact; from S12 on it holds exactly only for the
// exact mu_1, and the table's 7 digits leave residuals near 1e-7 relative. S4-S12 equal
// Table 4-1 to its 7 digits (tested). For S14 and S16 the tables of different codes differ
// (fewer mu-only conditions than classes, closed by different extra ones); ours are closed by
// the mixed moments, in the least-squares sense.
#include "tycho/quadrature.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "instrument/error.hpp"
#include "mesh/gauss_legendre.hpp"

namespace tycho {

namespace {

// mu_1 of LQn, N = 2, 4, ..., 16 (Lewis & Miller Table 4-1; S2 is 1/sqrt(3)).
constexpr std::array<double, 8> kMu1 = {0.5773502691896258, 0.3500212, 0.2666355, 0.2182179,
                                        0.1893213,          0.1672126, 0.1519859, 0.1389568};

// (1 / (pi/2)) times the integral over the first octant of mu^a eta^b xi^c.
double octant_moment(int a, int b, int c) {
  const double g = std::tgamma((a + 1) / 2.0) * std::tgamma((b + 1) / 2.0) * std::tgamma((c + 1) / 2.0);
  return g / (2 * std::numbers::pi * std::tgamma((a + b + c + 3) / 2.0));
}

// Least squares min |A x - b| for a full-column-rank m x n A (m >= n), by modified
// Gram-Schmidt QR: rows stored row-major.
std::vector<double> least_squares(std::vector<double> a, std::vector<double> b, std::size_t m, std::size_t n) {
  std::vector<double> r(n * n, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t k = 0; k < j; ++k) {
      double dot = 0;
      for (std::size_t i = 0; i < m; ++i) dot += a[i * n + k] * a[i * n + j];
      r[k * n + j] = dot;
      for (std::size_t i = 0; i < m; ++i) a[i * n + j] -= dot * a[i * n + k];
    }
    double norm = 0;
    for (std::size_t i = 0; i < m; ++i) norm += a[i * n + j] * a[i * n + j];
    norm = std::sqrt(norm);
    r[j * n + j] = norm;
    for (std::size_t i = 0; i < m; ++i) a[i * n + j] /= norm;
  }
  std::vector<double> x(n, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    double dot = 0;
    for (std::size_t i = 0; i < m; ++i) dot += a[i * n + j] * b[i];
    x[j] = dot;
  }
  for (std::size_t j = n; j-- > 0;) {
    for (std::size_t k = j + 1; k < n; ++k) x[j] -= r[j * n + k] * x[k];
    x[j] /= r[j * n + j];
  }
  return x;
}

// Adds the 8 reflections of the first-octant directions, octant-major.
void reflect_into_octants(const std::vector<Vec3>& first, const std::vector<double>& w, Quadrature& q) {
  for (std::uint8_t o = 0; o < 8; ++o) {
    const double sx = (o & 1) ? -1 : 1, sy = (o & 2) ? -1 : 1, sz = (o & 4) ? -1 : 1;
    for (std::size_t d = 0; d < first.size(); ++d) {
      q.omega.push_back({sx * first[d].x, sy * first[d].y, sz * first[d].z});
      q.weight.push_back(w[d]);
      q.octant.push_back(o);
    }
  }
}

// prefix followed by the number (appended, not prepended: GCC 12 warns, wrongly, on
// "literal" + std::string at -O2).
std::string with_number(std::string prefix, int number) {
  prefix += std::to_string(number);
  return prefix;
}

}  // namespace

std::uint8_t octant_of(const Vec3& omega) {
  return static_cast<std::uint8_t>((omega.x < 0 ? 1 : 0) | (omega.y < 0 ? 2 : 0) | (omega.z < 0 ? 4 : 0));
}

Quadrature level_symmetric(int order, const std::string& source) {
  if (order < 2 || order > 16 || order % 2 != 0) {
    throw instrument::InputError(source, "", with_number("the level-symmetric order must be one of 2, 4, 6, 8, 10, 12, 14, 16, found ", order));
  }
  const int n = order / 2;
  const double mu1 = kMu1[static_cast<std::size_t>(n - 1)];
  std::vector<double> mu(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    mu[static_cast<std::size_t>(i)] = n == 1 ? mu1 : std::sqrt(mu1 * mu1 + i * 2 * (1 - 3 * mu1 * mu1) / (order - 2));
  }
  // First-octant directions by level indices, and their point class (sorted indices).
  std::vector<std::array<int, 3>> levels, classes;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      const int k = n + 2 - i - j;
      if (k < 1 || k > n) continue;
      levels.push_back({i, j, k});
      std::array<int, 3> c{i, j, k};
      std::sort(c.begin(), c.end());
      if (std::find(classes.begin(), classes.end(), c) == classes.end()) classes.push_back(c);
    }
  std::vector<std::size_t> class_of(levels.size());
  std::vector<Vec3> first(levels.size());
  for (std::size_t d = 0; d < levels.size(); ++d) {
    std::array<int, 3> c = levels[d];
    std::sort(c.begin(), c.end());
    class_of[d] = static_cast<std::size_t>(std::find(classes.begin(), classes.end(), c) - classes.begin());
    first[d] = {mu[static_cast<std::size_t>(levels[d][0] - 1)], mu[static_cast<std::size_t>(levels[d][1] - 1)],
                mu[static_cast<std::size_t>(levels[d][2] - 1)]};
  }
  // The even-moment conditions, one row per monomial with a >= b >= c (the set is symmetric
  // under permutations of the axes, so the others repeat these rows).
  std::vector<double> a, rhs;
  std::size_t rows = 0;
  for (int degree = 0; degree <= order - 2; degree += 2)
    for (int ea = degree; ea >= 0; ea -= 2)
      for (int eb = std::min(ea, degree - ea); eb >= 0; eb -= 2) {
        const int ec = degree - ea - eb;
        if (ec > eb) continue;
        std::vector<double> row(classes.size(), 0.0);
        for (std::size_t d = 0; d < first.size(); ++d) {
          row[class_of[d]] += std::pow(first[d].x, ea) * std::pow(first[d].y, eb) * std::pow(first[d].z, ec);
        }
        a.insert(a.end(), row.begin(), row.end());
        rhs.push_back(octant_moment(ea, eb, ec));
        ++rows;
      }
  const std::vector<double> class_weight = least_squares(a, rhs, rows, classes.size());
  // Rescaled so the weights sum to 4 pi to round-off (the least-squares residual of S12-S16
  // would otherwise leave ~1e-8 in the zeroth moment too).
  double octant_sum = 0;
  for (std::size_t d = 0; d < first.size(); ++d) octant_sum += class_weight[class_of[d]];
  std::vector<double> w(first.size());
  for (std::size_t d = 0; d < first.size(); ++d) w[d] = class_weight[class_of[d]] / octant_sum * std::numbers::pi / 2;
  Quadrature q;
  q.name = with_number("S", order);
  reflect_into_octants(first, w, q);
  return q;
}

Quadrature product_quadrature(int polar, int azimuthal, const std::string& source) {
  if (polar < 2 || polar % 2 != 0 || polar > 1000) {
    throw instrument::InputError(source, "", with_number("the product quadrature's polar count must be even, 2 to 1000, found ", polar));
  }
  if (azimuthal < 4 || azimuthal % 4 != 0 || azimuthal > 4000) {
    throw instrument::InputError(source, "",
                                 with_number("the product quadrature's azimuthal count must be a multiple of 4, 4 to 4000, found ", azimuthal));
  }
  std::vector<double> mu, wmu;
  mesh::gauss_legendre(polar, mu, wmu);
  Quadrature q;
  q.name = with_number(with_number("product ", polar) + "x", azimuthal);
  for (std::size_t p = 0; p < mu.size(); ++p) {
    const double s = std::sqrt(1 - mu[p] * mu[p]);
    for (int k = 0; k < azimuthal; ++k) {
      const double phi = (k + 0.5) * 2 * std::numbers::pi / azimuthal;
      const Vec3 omega{s * std::cos(phi), s * std::sin(phi), mu[p]};
      q.omega.push_back(omega);
      q.weight.push_back(wmu[p] * 2 * std::numbers::pi / azimuthal);
      q.octant.push_back(octant_of(omega));
    }
  }
  return q;
}

}  // namespace tycho
