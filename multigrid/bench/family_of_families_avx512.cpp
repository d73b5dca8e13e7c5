// The families of families' AVX-512 loop (family_of_families.hpp), compiled with -mavx512f.
//
// A batch: the 35 node values u loaded once each into five registers, each slot's eight
// lanes put together from them by permutes fixed at compile time, the lanes whose family is
// relabelled swapped by mask; the 10 geometry nodes' records loaded once and the families'
// corners permuted out of them; the product as p1_cells_avx512.cpp does it; the sums swapped
// back to the canonical slots and stored; then node by node, in an order fixed at compile
// time, y loaded, its sums added, y stored.
#include <immintrin.h>

#include <utility>

#include "../src/p1_cell_math.hpp"
#include "../src/p1_cells.hpp"
#include "../src/p1_points_avx512.hpp"
#include "family_of_families.hpp"

namespace mg::bench {

namespace {

using detail::Lanes8;
constexpr const FofLayout& kL = kFofLayout;

// Lane j's local node of canonical slot n, as a permute index.
template <int n>
inline __m512i local_index() {
  return _mm512_set_epi64(kL.local[7][n], kL.local[6][n], kL.local[5][n], kL.local[4][n], kL.local[3][n],
                          kL.local[2][n], kL.local[1][n], kL.local[0][n]);
}
// The lanes of canonical slot n whose local node is in [lo, hi).
template <int n>
constexpr unsigned lanes_in(int lo, int hi) {
  unsigned m = 0;
  for (int j = 0; j < 8; ++j)
    if (kL.local[j][n] >= lo && kL.local[j][n] < hi) m |= 1u << j;
  return m;
}

// Canonical slot n's eight values from the 35 locals' (R[k] lane l: local 8 k + l).
template <int n>
inline __m512d canonical_slot(const __m512d (&R)[5]) {
  constexpr unsigned a = lanes_in<n>(0, 16), b = lanes_in<n>(16, 32), c = lanes_in<n>(32, 40);
  const __m512i idx = local_index<n>();
  __m512d v = _mm512_setzero_pd();
  if constexpr (a != 0) v = _mm512_permutex2var_pd(R[0], idx, R[1]);
  if constexpr (b != 0) {
    const __m512d w = _mm512_permutex2var_pd(R[2], idx, R[3]);
    v = a != 0 ? _mm512_mask_blend_pd(static_cast<__mmask8>(b), v, w) : w;
  }
  if constexpr (c != 0) {
    const __m512d w = _mm512_permutexvar_pd(idx, R[4]);
    v = (a | b) != 0 ? _mm512_mask_blend_pd(static_cast<__mmask8>(c), v, w) : w;
  }
  return v;
}

inline void swap_lanes(__mmask8 m, Lanes8& a, Lanes8& b) {
  const __m512d t = _mm512_mask_blend_pd(m, a, b);
  b = _mm512_mask_blend_pd(m, b, a);
  a = t;
}
// Canonical order to the lanes' family order, or back (each relabelling is its own inverse).
inline void relabel(__mmask8 s12, __mmask8 s13, Lanes8 (&v)[10]) {
  swap_lanes(s12, v[1], v[2]);
  swap_lanes(s12, v[4], v[5]);
  swap_lanes(s12, v[8], v[9]);
  swap_lanes(s13, v[1], v[3]);
  swap_lanes(s13, v[4], v[6]);
  swap_lanes(s13, v[7], v[9]);
}

// y at local node i += its sums, in the layout's order.
template <std::size_t i, std::size_t... k>
inline void add_node(const std::uint32_t* slot, const double (&out)[10][8], double* y, std::index_sequence<k...>) {
  double s = y[slot[i]];
  ((s += out[kL.from_slot[i][k]][kL.from_lane[i][k]]), ...);
  y[slot[i]] = s;
}
template <std::size_t... i>
inline void add_nodes(const std::uint32_t* slot, const double (&out)[10][8], double* y, std::index_sequence<i...>) {
  (add_node<i>(slot, out, y, std::make_index_sequence<kL.count[i]>{}), ...);
}

template <int... n>
inline void canonical_slots(const __m512d (&R)[5], Lanes8 (&v)[10], std::integer_sequence<int, n...>) {
  ((v[n] = canonical_slot<n>(R)), ...);
}

// Corner k of each lane's family (its order) as a permute index into the 10 geometry nodes
// (locals 0..7 in the first source, 8 and 9 in lanes 0 and 1 of the second).
template <int k, int d>
inline __m512i corner_index() {
  constexpr unsigned char r[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 2, 1}};
  return _mm512_set_epi64(kFofChild[7][r[d][k]], kFofChild[6][r[d][k]], kFofChild[5][r[d][k]],
                          kFofChild[4][r[d][k]], kFofChild[3][r[d][k]], kFofChild[2][r[d][k]],
                          kFofChild[1][r[d][k]], kFofChild[0][r[d][k]]);
}
template <int k>
inline __m512i family_corner(__mmask8 s12, __mmask8 s13) {
  __m512i idx = corner_index<k, 0>();
  if constexpr (k == 1 || k == 2) idx = _mm512_mask_blend_epi64(s12, idx, corner_index<k, 1>());
  if constexpr (k == 1 || k == 3) idx = _mm512_mask_blend_epi64(s13, idx, corner_index<k, 2>());
  return idx;
}

template <FofPart Part>
[[gnu::flatten]] void fof_loop(const NodePoint* points, const FamilyOfFamilies* batches, std::size_t count,
                               const double* u, double* y) {
  __m512d sink = _mm512_setzero_pd();  // what keeps the results live without the scatter
  for (std::size_t b = 0; b < count; ++b) {
    if (b + detail::kPrefetchBatches < count) {
      const std::uint32_t* ahead = batches[b + detail::kPrefetchBatches].slot;
      for (int i = 0; i < 10; ++i) __builtin_prefetch(&points[ahead[i]], 0, 3);
    }
    const FamilyOfFamilies& batch = batches[b];
    const std::uint32_t* slot = batch.slot;
    const __mmask8 s12 = batch.swap12, s13 = batch.swap13;
    // The geometry: locals 0..7 transposed, 8 and 9 as x y z w x y z w.
    Lanes8 X, Y, Z;
    detail::load_points(points, slot, X, Y, Z);
    const __m512d p89 = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_load_pd(&points[slot[8]].x)),
                                           _mm256_load_pd(&points[slot[9]].x), 1);
    const __m512d X2 = _mm512_permutexvar_pd(_mm512_set_epi64(0, 0, 0, 0, 0, 0, 4, 0), p89);
    const __m512d Y2 = _mm512_permutexvar_pd(_mm512_set_epi64(1, 1, 1, 1, 1, 1, 5, 1), p89);
    const __m512d Z2 = _mm512_permutexvar_pd(_mm512_set_epi64(2, 2, 2, 2, 2, 2, 6, 2), p89);
    detail::FamilyNodes<Lanes8> f;
    const __m512i corner[4] = {family_corner<0>(s12, s13), family_corner<1>(s12, s13), family_corner<2>(s12, s13),
                               family_corner<3>(s12, s13)};
    for (int k = 0; k < 4; ++k) {
      f.x[k] = _mm512_permutex2var_pd(X, corner[k], X2);
      f.y[k] = _mm512_permutex2var_pd(Y, corner[k], Y2);
      f.z[k] = _mm512_permutex2var_pd(Z, corner[k], Z2);
    }
    // The 35 values of u, each loaded once.
    __m512d R[5];
    for (int k = 0; k < 4; ++k)
      R[k] = Part == FofPart::gather_values
                 ? _mm512_i32gather_pd(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(slot + 8 * k)), u, 8)
                 : detail::load_values(u, slot + 8 * k);
    const __m256d r4 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadh_pd(_mm_load_sd(u + slot[32]), u + slot[33])),
                                            _mm_load_sd(u + slot[34]), 1);
    R[4] = _mm512_castpd256_pd512(r4);
    canonical_slots(R, f.u, std::make_integer_sequence<int, 10>{});
    const bool relabelled = Part != FofPart::relabel_if_any || (s12 | s13) != 0;
    if (relabelled) relabel(s12, s13, f.u);
    Lanes8 result[10];
    if constexpr (Part == FofPart::product) {
      for (int n = 0; n < 10; ++n) result[n] = f.u[n] + f.x[n % 4];
    } else {
      detail::product(f, result);
    }
    if (relabelled) relabel(s12, s13, result);
    if constexpr (Part == FofPart::scatter) {
      for (int n = 0; n < 10; ++n) sink = _mm512_add_pd(sink, result[n]);
    } else {
      alignas(64) double out[10][8];
      for (int n = 0; n < 10; ++n) _mm512_store_pd(out[n], result[n]);
      add_nodes(slot, out, y, std::make_index_sequence<kFofNodes>{});
    }
  }
  if constexpr (Part == FofPart::scatter) {
    alignas(64) double lanes[8];
    _mm512_store_pd(lanes, sink);
    for (double v : lanes) y[0] += v;
  }
}

}  // namespace

void apply_families_of_families(const NodePoint* points, const std::vector<FamilyOfFamilies>& batches,
                                const double* u, double* y, FofPart left_out) {
  switch (left_out) {
    case FofPart::nothing: return fof_loop<FofPart::nothing>(points, batches.data(), batches.size(), u, y);
    case FofPart::product: return fof_loop<FofPart::product>(points, batches.data(), batches.size(), u, y);
    case FofPart::scatter: return fof_loop<FofPart::scatter>(points, batches.data(), batches.size(), u, y);
    case FofPart::gather_values:
      return fof_loop<FofPart::gather_values>(points, batches.data(), batches.size(), u, y);
    case FofPart::relabel_if_any:
      return fof_loop<FofPart::relabel_if_any>(points, batches.data(), batches.size(), u, y);
  }
}

}  // namespace mg::bench
