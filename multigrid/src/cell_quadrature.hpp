// A cell's quadrature sums for the load and the error norm (p1_operator.hpp): f lambda_i
// (the four corners' load) by the symmetric 4-point rule, exact to degree 2, the degree a P1
// load needs (MFEM's default for it, mesh::four_point_rule); (u_h - u)^2 by the conical
// product rule exact to degree 5 (64 points), since it measures the discretisation's error
// rather than making it.
//
// The error norm's terms go into 8 partial sums (point k into sum k mod 8, in ascending k),
// which are then added pairwise, halving (sum j gets sum j + 4, then j + 2, then j + 1): eight
// independent chains instead of one, which bounded the sum by the adder's latency. The load's
// four terms a corner are added in ascending k. The order is the code's: without -ffast-math
// the compiler does not reassociate, and -ffp-contract=off forbids fused multiply-adds, so
// whether a build puts the sums in SSE2, AVX2 or AVX-512 lanes, it gives the same bits. This
// header is compiled into the portable objects (p1_operator.cpp) and, like p1_cell_math.hpp,
// with -mavx2 (cell_quadrature_avx2.cpp) and -mavx512f (cell_quadrature_avx512.cpp); an
// inline namespace per instruction set keeps their inline functions apart.
#pragma once
#include <cstddef>

#include "p1_cell_math.hpp"  // MG_CELL_MATH_ISA

namespace mg::detail {

inline constexpr std::size_t kLoadPoints = 4;    // mesh::four_point_rule()
inline constexpr std::size_t kErrorPoints = 64;  // mesh::conical_product_rule(4)
inline constexpr std::size_t kPartialSums = 8;

// A rule of N points corner by corner (for the error norm's, a multiple of kPartialSums, a
// partial sum's 8 points are contiguous): bary[i][k] = lambda_i at point k,
// corner_weight[i][k] = weight[k] bary[i][k].
template <std::size_t N>
struct CellRule {
  static constexpr std::size_t points = N;
  alignas(64) double bary[4][N];
  alignas(64) double weight[N];
  alignas(64) double corner_weight[4][N];
};
using LoadRule = CellRule<kLoadPoints>;
using ErrorRule = CellRule<kErrorPoints>;
static_assert(kErrorPoints % kPartialSums == 0, "the error norm's rule: whole partial sums");

// A function's values at the rule's points of a cell: scale * (x[k] * y[k] * z[k]), the
// products in that order (ProductFunction's g per axis). A function given point by point
// comes as x = its values, y = z = ones and scale 1, which gives its bits exactly.
struct PointProduct {
  double scale;
  const double *x, *y, *z;
};

// The kernels of one instruction set.
struct CellQuadratureKernels {
  // out[i] = sum_k corner_weight[i][k] f_k (the load of corner i over the volume).
  void (*corner_integrals)(const LoadRule& r, const PointProduct& f, double* out);
  // sum_k weight[k] (u_h(x_k) - u_k)^2 with u_h(x_k) = 0 + sum_i bary[i][k] corner[i].
  double (*squared_error)(const ErrorRule& r, const double* corner, const PointProduct& u);
};
CellQuadratureKernels cell_quadrature_portable();
CellQuadratureKernels cell_quadrature_avx2();    // with MULTIGRID_HAVE_AVX2 only
CellQuadratureKernels cell_quadrature_avx512();  // with MULTIGRID_HAVE_AVX512 only

inline namespace MG_CELL_MATH_ISA {

// f at the error norm's points, 8 at a time from point k0.
inline void product_at(const PointProduct& f, std::size_t k0, double* out) {
  for (std::size_t j = 0; j < kPartialSums; ++j)
    out[j] = f.scale * (f.x[k0 + j] * f.y[k0 + j] * f.z[k0 + j]);
}

// sum_k w[k] t[k] over N points in the order above; t from `terms(k0, t8)`, 8 points at a time.
template <std::size_t N, class Terms>
inline double rule_sum(const double* w, Terms&& terms) {
  double s[kPartialSums], t[kPartialSums];
  terms(0, t);
  for (std::size_t j = 0; j < kPartialSums; ++j) s[j] = w[j] * t[j];
  for (std::size_t k = kPartialSums; k < N; k += kPartialSums) {
    terms(k, t);
    for (std::size_t j = 0; j < kPartialSums; ++j) s[j] += w[k + j] * t[j];
  }
  for (std::size_t h = kPartialSums / 2; h > 0; h /= 2)
    for (std::size_t j = 0; j < h; ++j) s[j] += s[j + h];
  return s[0];
}

inline void corner_integrals(const LoadRule& r, const PointProduct& f, double* out) {
  double fk[kLoadPoints];
  for (std::size_t k = 0; k < kLoadPoints; ++k) fk[k] = f.scale * (f.x[k] * f.y[k] * f.z[k]);
  for (std::size_t i = 0; i < 4; ++i) {
    double s = r.corner_weight[i][0] * fk[0];
    for (std::size_t k = 1; k < kLoadPoints; ++k) s += r.corner_weight[i][k] * fk[k];
    out[i] = s;
  }
}

inline double squared_error(const ErrorRule& r, const double* corner, const PointProduct& u) {
  return rule_sum<kErrorPoints>(r.weight, [&](std::size_t k0, double* t) {
    double uk[kPartialSums];
    product_at(u, k0, uk);
    for (std::size_t j = 0; j < kPartialSums; ++j) {
      double value = 0;
      for (std::size_t i = 0; i < 4; ++i) value += r.bary[i][k0 + j] * corner[i];
      const double d = value - uk[j];
      t[j] = d * d;
    }
  });
}

inline CellQuadratureKernels cell_quadrature_here() { return {corner_integrals, squared_error}; }

}  // namespace MG_CELL_MATH_ISA
}  // namespace mg::detail
