// The P1 element loop (p1_operator.hpp).
#include "multigrid/p1_operator.hpp"

#include <cmath>

#include "tycho/tet_quadrature.hpp"

namespace mg {

namespace {

struct ElementVectors {
  double c[4][3];
  double scale;  // 1 / (6 |det|)
  double volume;
};

inline ElementVectors element_vectors(const double* xyz, const std::array<std::uint32_t, 4>& v) {
  const double* p0 = xyz + 3 * v[0];
  double e[3][3];
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < 3; ++a) e[k][a] = xyz[3 * v[static_cast<std::size_t>(k + 1)] + static_cast<std::size_t>(a)] - p0[a];
  ElementVectors ev;
  const auto cross = [](const double* a, const double* b, double* out) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
  };
  cross(e[1], e[2], ev.c[1]);
  cross(e[2], e[0], ev.c[2]);
  cross(e[0], e[1], ev.c[3]);
  for (int a = 0; a < 3; ++a) ev.c[0][a] = -(ev.c[1][a] + ev.c[2][a] + ev.c[3][a]);
  const double det = e[0][0] * ev.c[1][0] + e[0][1] * ev.c[1][1] + e[0][2] * ev.c[1][2];
  ev.scale = 1.0 / (6.0 * std::fabs(det));
  ev.volume = std::fabs(det) / 6.0;
  return ev;
}

}  // namespace

void apply_cells(const LocalLevel& L, const double* x, double* y) {
  const double* xyz = L.xyz.data();
  for (const std::array<std::uint32_t, 4>& v : L.cells) {
    const ElementVectors ev = element_vectors(xyz, v);
    double g[3] = {0, 0, 0};
    for (int j = 0; j < 4; ++j) {
      const double xj = x[v[static_cast<std::size_t>(j)]];
      for (int a = 0; a < 3; ++a) g[a] += ev.c[j][a] * xj;
    }
    for (int i = 0; i < 4; ++i)
      y[v[static_cast<std::size_t>(i)]] += ev.scale * (ev.c[i][0] * g[0] + ev.c[i][1] * g[1] + ev.c[i][2] * g[2]);
  }
}

void add_cell_diagonal(const LocalLevel& L, double* d) {
  for (const std::array<std::uint32_t, 4>& v : L.cells) {
    const ElementVectors ev = element_vectors(L.xyz.data(), v);
    for (int i = 0; i < 4; ++i)
      d[v[static_cast<std::size_t>(i)]] +=
          ev.scale * (ev.c[i][0] * ev.c[i][0] + ev.c[i][1] * ev.c[i][1] + ev.c[i][2] * ev.c[i][2]);
  }
}

namespace {

const tycho::TetQuadrature& rule() {
  static const tycho::TetQuadrature q = tycho::conical_product_rule(4);
  return q;
}

void point_of(const LocalLevel& L, const std::array<std::uint32_t, 4>& v, const std::array<double, 4>& bary,
              double* p) {
  p[0] = p[1] = p[2] = 0;
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < 3; ++a) p[a] += bary[static_cast<std::size_t>(k)] * L.xyz[3 * v[static_cast<std::size_t>(k)] + static_cast<std::size_t>(a)];
}

}  // namespace

void add_cell_load(const LocalLevel& L, const std::function<double(double, double, double)>& f, double* b) {
  const tycho::TetQuadrature& q = rule();
  for (const std::array<std::uint32_t, 4>& v : L.cells) {
    const double volume = element_vectors(L.xyz.data(), v).volume;
    for (std::size_t k = 0; k < q.weight.size(); ++k) {
      double p[3];
      point_of(L, v, q.bary[k], p);
      const double w = volume * q.weight[k] * f(p[0], p[1], p[2]);
      for (int i = 0; i < 4; ++i) b[v[static_cast<std::size_t>(i)]] += w * q.bary[k][static_cast<std::size_t>(i)];
    }
  }
}

double cell_l2_error_squared(const LocalLevel& L, const double* uh,
                             const std::function<double(double, double, double)>& u) {
  const tycho::TetQuadrature& q = rule();
  double sum = 0;
  for (const std::array<std::uint32_t, 4>& v : L.cells) {
    const double volume = element_vectors(L.xyz.data(), v).volume;
    for (std::size_t k = 0; k < q.weight.size(); ++k) {
      double p[3];
      point_of(L, v, q.bary[k], p);
      double value = 0;
      for (int i = 0; i < 4; ++i) value += q.bary[k][static_cast<std::size_t>(i)] * uh[v[static_cast<std::size_t>(i)]];
      const double d = value - u(p[0], p[1], p[2]);
      sum += volume * q.weight[k] * d * d;
    }
  }
  return sum;
}

}  // namespace mg
