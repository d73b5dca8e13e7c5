// The P1 element loop (p1_operator.hpp).
#include "multigrid/p1_operator.hpp"

#include <cmath>

#include "p1_cell_math.hpp"
#include "p1_cells.hpp"
#include "tycho/tet_quadrature.hpp"

namespace mg {

namespace {

struct ElementVectors {
  double c[4][3];
  double scale;  // 1 / (6 |det|)
  double volume;
};

inline ElementVectors element_vectors(const NodePoint* points, const std::array<std::uint32_t, 4>& v) {
  const NodePoint& p0 = points[v[0]];
  double e[3][3];
  for (std::size_t k = 0; k < 3; ++k) {
    const NodePoint& p = points[v[k + 1]];
    e[k][0] = p.x - p0.x;
    e[k][1] = p.y - p0.y;
    e[k][2] = p.z - p0.z;
  }
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

namespace detail {

// One cell or family at a time, in the streams' order (the AVX2 build's lanes scatter in it).
template <std::size_t N>
void apply_portable(const NodePoint* points, const std::array<std::uint32_t, N>* items, std::size_t n_items,
                    const double* u, double* y) {
  const std::size_t q = stream_length(n_items);
  for (std::size_t step = 0; step < 4 * q; ++step) {
    if (step % 4 == 0 && step / 4 + kPrefetchBatches < q)
      prefetch_geometry(points, items, n_items, q, step / 4 + kPrefetchBatches);
    const std::size_t c = (step % 4) * q + step / 4;  // the streams' order (p1_cells.hpp)
    if (c >= n_items) continue;
    const std::array<std::uint32_t, N>& v = items[c];
    NodeValues<double, N> f;
    for (std::size_t n = 0; n < kGeometryNodes; ++n) {
      const NodePoint& node = points[v[n]];
      f.x[n] = node.x;
      f.y[n] = node.y;
      f.z[n] = node.z;
    }
    for (std::size_t n = 0; n < N; ++n) f.u[n] = u[v[n]];
    double out[N];
    product(f, out);
    for (std::size_t n = 0; n < N; ++n) y[v[n]] += out[n];
  }
}

template void apply_portable<4>(const NodePoint*, const std::array<std::uint32_t, 4>*, std::size_t, const double*,
                                double*);
template void apply_portable<10>(const NodePoint*, const std::array<std::uint32_t, 10>*, std::size_t, const double*,
                                 double*);

}  // namespace detail

const char* cell_kernel_name(CellKernel k) { return k == CellKernel::avx2 ? "avx2" : "portable"; }

bool cell_kernel_runs_here(CellKernel k) {
  if (k == CellKernel::portable) return true;
#ifdef MULTIGRID_HAVE_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

CellKernel fastest_cell_kernel() {
  return cell_kernel_runs_here(CellKernel::avx2) ? CellKernel::avx2 : CellKernel::portable;
}

void apply_cells(const LocalLevel& L, const double* x, double* y, CellKernel kernel) {
  // The families' cells come first in L.cells (local_level.hpp); the loop takes the rest.
  const std::size_t in_families = 8 * L.families.size();
  const std::array<std::uint32_t, 4>* loose = L.cells.data() + in_families;
  const std::size_t n_loose = L.cells.size() - in_families;
#ifdef MULTIGRID_HAVE_AVX2
  if (kernel == CellKernel::avx2 && cell_kernel_runs_here(kernel)) {
    detail::apply_avx2(L.xyz.data(), L.families.data(), L.families.size(), x, y);
    detail::apply_avx2(L.xyz.data(), loose, n_loose, x, y);
    return;
  }
#endif
  (void)kernel;
  detail::apply_portable(L.xyz.data(), L.families.data(), L.families.size(), x, y);
  detail::apply_portable(L.xyz.data(), loose, n_loose, x, y);
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
  for (std::size_t k = 0; k < 4; ++k) {
    const NodePoint& q = L.xyz[v[k]];
    p[0] += bary[k] * q.x;
    p[1] += bary[k] * q.y;
    p[2] += bary[k] * q.z;
  }
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
