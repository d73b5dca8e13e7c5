// The P1 element loop (p1_operator.hpp).
#include "multigrid/p1_operator.hpp"

#include <omp.h>

#include <cmath>
#include <stdexcept>

#include "p1_cell_math.hpp"
#include "axis_value_cache.hpp"
#include "cell_quadrature.hpp"
#include "p1_cells.hpp"
#include "mesh/tet_quadrature.hpp"

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

// One cell or family at a time, batch by batch.
template <std::size_t N>
double* apply_portable(const NodePoint* points, const ItemBatches<N>& items, const BatchRange<N>& range,
                       const double* u, double* y, double* kept) {
  const std::size_t q = range.end;
  RangeScatter<N> scatter(range, kept);
  for (std::size_t b = range.begin; b < q; ++b) {
    if (b + kPrefetchBatches < q) prefetch_geometry<N>(points, items.batches[b + kPrefetchBatches]);
    const typename ItemBatches<N>::Batch& batch = items.batches[b];
    const std::size_t lanes = items.lanes(b);
    double out[N][kBatch];
    for (std::size_t l = 0; l < lanes; ++l) {
      NodeValues<double, N> f;
      for (std::size_t n = 0; n < kGeometryNodes; ++n) {
        const NodePoint& node = points[batch[n][l]];
        f.x[n] = node.x;
        f.y[n] = node.y;
        f.z[n] = node.z;
      }
      for (std::size_t n = 0; n < N; ++n) f.u[n] = u[batch[n][l]];
      double one[N];
      product(f, one);
      for (std::size_t n = 0; n < N; ++n) out[n][l] = one[n];
    }
    scatter(b, batch, lanes, out, y);
  }
  return scatter.kept_end();
}

template double* apply_portable<4>(const NodePoint*, const ItemBatches<4>&, const BatchRange<4>&, const double*,
                                   double*, double*);
template double* apply_portable<10>(const NodePoint*, const ItemBatches<10>&, const BatchRange<10>&, const double*,
                                    double*, double*);

}  // namespace detail

const char* cell_kernel_name(CellKernel k) {
  switch (k) {
    case CellKernel::avx2: return "avx2";
    case CellKernel::avx512: return "avx512";
    case CellKernel::portable: break;
  }
  return "portable";
}

bool cell_kernel_runs_here(CellKernel k) {
  // Built in, and the CPU has the instructions (and the OS their registers: libgcc checks).
#ifdef MULTIGRID_HAVE_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
#else
  static const bool avx2 = false;
#endif
#ifdef MULTIGRID_HAVE_AVX512
  static const bool avx512 = __builtin_cpu_supports("avx512f");
#else
  static const bool avx512 = false;
#endif
  switch (k) {
    case CellKernel::portable: return true;
    case CellKernel::avx2: return avx2;
    case CellKernel::avx512: return avx512;
  }
  return false;
}

CellKernel fastest_cell_kernel() {
  for (CellKernel k : {CellKernel::avx512, CellKernel::avx2})
    if (cell_kernel_runs_here(k)) return k;
  return CellKernel::portable;
}

namespace {

// A build's loop over the families and over the loose cells.
template <std::size_t N>
using CellLoop = double* (*)(const NodePoint*, const ItemBatches<N>&, const BatchRange<N>&, const double*, double*,
                             double*);
struct CellLoops {
  CellLoop<10> families;
  CellLoop<4> loose;
};

CellLoops loops_of(CellKernel kernel) {
#ifdef MULTIGRID_HAVE_AVX512
  if (kernel == CellKernel::avx512 && cell_kernel_runs_here(kernel))
    return {detail::apply_avx512<10>, detail::apply_avx512<4>};
#endif
#ifdef MULTIGRID_HAVE_AVX2
  if (kernel == CellKernel::avx2 && cell_kernel_runs_here(kernel)) return {detail::apply_avx2<10>, detail::apply_avx2<4>};
#endif
  (void)kernel;
  return {detail::apply_portable<10>, detail::apply_portable<4>};
}

}  // namespace

namespace {

// The loose cells' batches must be those of the cells (batch_cells after a change; the
// families' are kept by the numbering and dissolve_families).
void require_batched(const LocalLevel& L) {
  if (L.loose_batches.items != L.loose_cells.size())
    throw std::logic_error("apply_cells: the level's batches are not those of its cells (batch_cells)");
}

// A range's sweep: its families' batches, then its loose cells'; the sums kept aside go to
// the range's buffer.
void sweep_range(const CellLoops& loops, const LocalLevel& L, CellLoopSplit::Range& r, const double* x, double* y) {
  double* kept = loops.families(L.xyz.data(), L.family_batches, r.families, x, y, r.kept.data());
  loops.loose(L.xyz.data(), L.loose_batches, r.loose, x, y, kept);
}

}  // namespace

void apply_cells(const LocalLevel& L, const double* x, double* y, CellKernel kernel) {
  require_batched(L);
  const CellLoops loops = loops_of(kernel);
  const BatchRange<10> families{0, L.family_batches.batches.size(), {}};
  const BatchRange<4> loose{0, L.loose_batches.batches.size(), {}};
  loops.families(L.xyz.data(), L.family_batches, families, x, y, nullptr);
  loops.loose(L.xyz.data(), L.loose_batches, loose, x, y, nullptr);
}

int apply_cells(const LocalLevel& L, CellLoopSplit& split, const double* x, double* y, CellKernel kernel) {
  require_batched(L);
  if (split.family_items != L.family_batches.items || split.loose_items != L.loose_batches.items ||
      split.ranges.empty())
    throw std::logic_error("apply_cells: the split is not of this level's batches (split_cell_loop)");
  const CellLoops loops = loops_of(kernel);
  const int ranges = static_cast<int>(split.ranges.size());
  if (ranges == 1) {
    sweep_range(loops, L, split.ranges[0], x, y);
    return 1;
  }
  int team = 1;
  // Any team sweeps every range: range r by thread r mod the team's size. The ranges add in
  // place to disjoint nodes, so the order the team takes them in changes no bit.
#pragma omp parallel num_threads(ranges)
  {
    const int me = omp_get_thread_num(), size = omp_get_num_threads();
    if (me == 0) team = size;
    for (int r = me; r < ranges; r += size) sweep_range(loops, L, split.ranges[static_cast<std::size_t>(r)], x, y);
  }
  // The sums kept aside, range by range: each node's additions in the serial order.
  for (std::size_t r = 1; r < split.ranges.size(); ++r) {
    const CellLoopSplit::Range& range = split.ranges[r];
    for (std::size_t k = 0; k < range.kept.size(); ++k) y[range.kept_nodes[k]] += range.kept[k];
  }
  return team;
}

namespace {

// K_ii of one cell, added to d at its corners (add_cell_diagonal; add_cell_load beside the load).
inline void add_diagonal_to_corners(const std::array<std::uint32_t, 4>& v, const ElementVectors& ev, double* d) {
  for (int i = 0; i < 4; ++i)
    d[v[static_cast<std::size_t>(i)]] +=
        ev.scale * (ev.c[i][0] * ev.c[i][0] + ev.c[i][1] * ev.c[i][1] + ev.c[i][2] * ev.c[i][2]);
}

}  // namespace

void add_cell_diagonal(const LocalLevel& L, double* d) {
  for_each_cell(L, [&](const std::array<std::uint32_t, 4>& v) {
    add_diagonal_to_corners(v, element_vectors(L.xyz.data(), v), d);
  });
}

namespace {

// The load's rule (cell_quadrature.hpp): mesh::four_point_rule(), exact to degree 2. The
// error norm's: conical_product_rule(4), 64 points.
const mesh::TetQuadrature& load_quadrature() {
  static const mesh::TetQuadrature q = mesh::four_point_rule();
  return q;
}
const mesh::TetQuadrature& error_quadrature() {
  static const mesh::TetQuadrature q = mesh::conical_product_rule(4);
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

double cell_volume(const LocalLevel& L, const std::array<std::uint32_t, 4>& v) {
  return element_vectors(L.xyz.data(), v).volume;
}

template <class Rule>
Rule cell_rule_of(const mesh::TetQuadrature& q) {
  if (q.weight.size() != Rule::points) throw std::logic_error("cell_rule_of: the quadrature rule has another point count");
  Rule t;
  for (std::size_t k = 0; k < Rule::points; ++k) {
    t.weight[k] = q.weight[k];
    for (std::size_t i = 0; i < 4; ++i) {
      t.bary[i][k] = q.bary[k][i];
      t.corner_weight[i][k] = q.weight[k] * q.bary[k][i];
    }
  }
  return t;
}
const detail::LoadRule& load_rule() {
  static const detail::LoadRule r = cell_rule_of<detail::LoadRule>(load_quadrature());
  return r;
}
const detail::ErrorRule& error_rule() {
  static const detail::ErrorRule r = cell_rule_of<detail::ErrorRule>(error_quadrature());
  return r;
}

detail::CellQuadratureKernels quadrature_of(CellKernel kernel) {
#ifdef MULTIGRID_HAVE_AVX512
  if (kernel == CellKernel::avx512 && cell_kernel_runs_here(kernel)) return detail::cell_quadrature_avx512();
#endif
#ifdef MULTIGRID_HAVE_AVX2
  if (kernel == CellKernel::avx2 && cell_kernel_runs_here(kernel)) return detail::cell_quadrature_avx2();
#endif
  (void)kernel;
  return detail::cell_quadrature_portable();
}

// b[v_i] += volume * s[i], corner by corner, cell after cell: each node's additions in the
// order of the cells.
inline void add_to_corners(const std::array<std::uint32_t, 4>& v, double volume, const double* s, double* b) {
  for (std::size_t i = 0; i < 4; ++i) b[v[i]] += volume * s[i];
}

// A function given point by point at a rule's N points as a PointProduct: its values times
// ones, times 1.
template <std::size_t N>
struct PointValues {
  double f[N];
  detail::PointProduct product() const {
    static const std::array<double, N> ones = [] {
      std::array<double, N> a;
      a.fill(1.0);
      return a;
    }();
    return {1.0, f, ones.data(), ones.data()};
  }
};

template <std::size_t N>
void values_at_points(const LocalLevel& L, const std::array<std::uint32_t, 4>& v,
                      const std::function<double(double, double, double)>& f, const mesh::TetQuadrature& q,
                      PointValues<N>& out) {
  for (std::size_t k = 0; k < N; ++k) {
    double p[3];
    point_of(L, v, q.bary[k], p);
    out.f[k] = f(p[0], p[1], p[2]);
  }
}

}  // namespace

namespace detail {
CellQuadratureKernels cell_quadrature_portable() { return cell_quadrature_here(); }
}  // namespace detail

void add_cell_load(const LocalLevel& L, const std::function<double(double, double, double)>& f, double* b,
                   CellKernel kernel) {
  const detail::LoadRule& r = load_rule();
  const detail::CellQuadratureKernels k = quadrature_of(kernel);
  PointValues<detail::kLoadPoints> values;
  for_each_cell(L, [&](const std::array<std::uint32_t, 4>& v) {
    values_at_points(L, v, f, load_quadrature(), values);
    double s[4];
    k.corner_integrals(r, values.product(), s);
    add_to_corners(v, cell_volume(L, v), s, b);
  });
}

double cell_l2_error_squared(const LocalLevel& L, const double* uh,
                             const std::function<double(double, double, double)>& u, CellKernel kernel) {
  const detail::ErrorRule& r = error_rule();
  const detail::CellQuadratureKernels k = quadrature_of(kernel);
  PointValues<detail::kErrorPoints> values;
  double sum = 0;
  for_each_cell(L, [&](const std::array<std::uint32_t, 4>& v) {
    values_at_points(L, v, u, error_quadrature(), values);
    const double corner[4] = {uh[v[0]], uh[v[1]], uh[v[2]], uh[v[3]]};
    sum += cell_volume(L, v) * k.squared_error(r, corner, values.product());
  });
  return sum;
}

namespace {

// The values of f's g at the rule's points of a cell, one array per axis.
struct CellAxisValues {
  const double *x, *y, *z;
};

// `rule`: the load's or the error norm's.
class ProductValues {
 public:
  ProductValues(const ProductFunction& f, const mesh::TetQuadrature& rule) : x_(rule, f.g), y_(rule, f.g), z_(rule, f.g) {}
  CellAxisValues at(const LocalLevel& L, const std::array<std::uint32_t, 4>& v) {
    const NodePoint &a = L.xyz[v[0]], &b = L.xyz[v[1]], &c = L.xyz[v[2]], &d = L.xyz[v[3]];
    return {x_.values({a.x, b.x, c.x, d.x}), y_.values({a.y, b.y, c.y, d.y}), z_.values({a.z, b.z, c.z, d.z})};
  }
  // The patterns of a family's 8 cells on each axis (family_patterns); false if one is not kept.
  bool family(const LocalLevel& L, const std::array<std::uint32_t, 10>& nodes, int shape,
              const detail::CornerPlaces& places) {
    std::array<double, 10> x, y, z;
    for (std::size_t n = 0; n < 10; ++n) {
      const NodePoint& p = L.xyz[nodes[n]];
      x[n] = p.x;
      y[n] = p.y;
      z[n] = p.z;
    }
    const auto s = static_cast<std::uint32_t>(shape);
    return x_.family_patterns(x, s, places, px_) && y_.family_patterns(y, s, places, py_) &&
           z_.family_patterns(z, s, places, pz_);
  }
  // Cell j's values of the family last found.
  CellAxisValues family_cell(std::size_t j) const { return {x_.at(px_[j]), y_.at(py_[j]), z_.at(pz_[j])}; }

 private:
  detail::AxisValueCache x_, y_, z_;
  std::array<std::uint32_t, 8> px_{}, py_{}, pz_{};
};

// per_cell(cell, its values) for every cell of the level in for_each_cell's order: a family's
// 8 cells from one lookup per axis (its shape is the level's: LocalLevel::family_shape), the
// cells in no family (and a family the cache cannot keep) one by one.
template <class PerCell>
void for_each_cell_values(const LocalLevel& L, ProductValues& values, PerCell&& per_cell) {
  for (std::size_t f = 0; f < L.family_count(); ++f) {
    std::array<std::array<std::uint32_t, 4>, 8> cells;
    for (std::size_t j = 0; j < 8; ++j) cells[j] = family_cell(L, f, j);
    const std::uint16_t shape = L.family_shape[f];
    if (values.family(L, L.family(f), shape, L.shapes[shape])) {
      for (std::size_t j = 0; j < 8; ++j) per_cell(cells[j], values.family_cell(j));
      continue;
    }
    for (std::size_t j = 0; j < 8; ++j) per_cell(cells[j], values.at(L, cells[j]));
  }
  for (const std::array<std::uint32_t, 4>& v : L.loose_cells) per_cell(v, values.at(L, v));
}

}  // namespace

void add_cell_load(const LocalLevel& L, const ProductFunction& f, double* b, CellKernel kernel, double* diagonal) {
  const detail::LoadRule& r = load_rule();
  const detail::CellQuadratureKernels k = quadrature_of(kernel);
  ProductValues values(f, load_quadrature());
  for_each_cell_values(L, values, [&](const std::array<std::uint32_t, 4>& v, const CellAxisValues& g) {
    double s[4];
    k.corner_integrals(r, {f.scale, g.x, g.y, g.z}, s);
    const ElementVectors ev = element_vectors(L.xyz.data(), v);
    add_to_corners(v, ev.volume, s, b);
    if (diagonal) add_diagonal_to_corners(v, ev, diagonal);
  });
}

double cell_l2_error_squared(const LocalLevel& L, const double* uh, const ProductFunction& u, CellKernel kernel) {
  const detail::ErrorRule& r = error_rule();
  const detail::CellQuadratureKernels k = quadrature_of(kernel);
  ProductValues values(u, error_quadrature());
  double sum = 0;
  for_each_cell_values(L, values, [&](const std::array<std::uint32_t, 4>& v, const CellAxisValues& g) {
    const double corner[4] = {uh[v[0]], uh[v[1]], uh[v[2]], uh[v[3]]};
    sum += cell_volume(L, v) * k.squared_error(r, corner, {u.scale, g.x, g.y, g.z});
  });
  return sum;
}

}  // namespace mg
