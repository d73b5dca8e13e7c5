// apply_cells four cells at a time (p1_operator.hpp), built with -mavx2 only where the
// compiler targets x86-64 and called only where the CPU has AVX2.
//
// Lane l of every register takes the cells (or families) of stream l (p1_cells.hpp), and
// each lane does exactly what the portable loop does for its cell, in the same scatter
// order, so the two give the same bits. Where a stream has run out, its lane repeats stream
// 0's item and does not scatter it.
#include <immintrin.h>

#include "p1_cell_math.hpp"
#include "p1_cells.hpp"

namespace mg::detail {

namespace {

// Node k of four cells or families (slot arrays of N): four 32-byte node records
// transposed into x, y and z lanes.
template <std::size_t N>
inline void load_point(const NodePoint* points, const std::array<std::uint32_t, N>* const at[4], std::size_t k,
                       Lanes4& x, Lanes4& y, Lanes4& z) {
  const __m256d r0 = _mm256_load_pd(&points[(*at[0])[k]].x);
  const __m256d r1 = _mm256_load_pd(&points[(*at[1])[k]].x);
  const __m256d r2 = _mm256_load_pd(&points[(*at[2])[k]].x);
  const __m256d r3 = _mm256_load_pd(&points[(*at[3])[k]].x);
  const __m256d xz01 = _mm256_unpacklo_pd(r0, r1), xz23 = _mm256_unpacklo_pd(r2, r3);
  const __m256d yw01 = _mm256_unpackhi_pd(r0, r1), yw23 = _mm256_unpackhi_pd(r2, r3);
  x = _mm256_permute2f128_pd(xz01, xz23, 0x20);
  y = _mm256_permute2f128_pd(yw01, yw23, 0x20);
  z = _mm256_permute2f128_pd(xz01, xz23, 0x31);
}

// The value at node k of four cells or families.
template <std::size_t N>
inline Lanes4 load_value(const double* u, const std::array<std::uint32_t, N>* const at[4], std::size_t k) {
  return _mm256_set_pd(u[(*at[3])[k]], u[(*at[2])[k]], u[(*at[1])[k]], u[(*at[0])[k]]);
}

// Batch b of the four streams of n items: lane l's item (stream 0's batch b where stream l
// has run out) and how many lanes are live (always a prefix).
template <std::size_t N>
inline std::size_t batch(const std::array<std::uint32_t, N>* items, std::size_t n, std::size_t q, std::size_t b,
                         const std::array<std::uint32_t, N>* at[4]) {
  std::size_t lanes = 0;
  for (std::size_t l = 0; l < 4; ++l) {
    const std::size_t c = l * q + b;
    if (c < n) ++lanes;
    at[l] = &items[c < n ? c : b];
  }
  return lanes;
}

}  // namespace

// Flattened: GCC otherwise keeps family_product a call, and a batch's 22 node vectors and
// 10 sums go through memory as its arguments; inlined they stay in registers or plain
// spills (1.15-1.2 times faster in the L3, 1.1 out of it; BENCHMARKS.md).
template <std::size_t N>
[[gnu::flatten]] void apply_avx2(const NodePoint* points, const std::array<std::uint32_t, N>* items, std::size_t n_items,
                const double* u, double* y) {
  const std::size_t q = stream_length(n_items);
  for (std::size_t b = 0; b < q; ++b) {
    if (b + kPrefetchBatches < q) prefetch_geometry(points, items, n_items, q, b + kPrefetchBatches);
    const std::array<std::uint32_t, N>* item[4];
    const std::size_t lanes = batch(items, n_items, q, b, item);
    NodeValues<Lanes4, N> f;
    for (std::size_t n = 0; n < kGeometryNodes; ++n) load_point(points, item, n, f.x[n], f.y[n], f.z[n]);
    for (std::size_t n = 0; n < N; ++n) f.u[n] = load_value(u, item, n);
    Lanes4 result[N];
    product(f, result);
    alignas(32) double out[N][4];
    for (std::size_t n = 0; n < N; ++n) _mm256_store_pd(out[n], result[n]);
    for (std::size_t l = 0; l < lanes; ++l)
      for (std::size_t n = 0; n < N; ++n) y[(*item[l])[n]] += out[n][l];
  }
}

template void apply_avx2<4>(const NodePoint*, const std::array<std::uint32_t, 4>*, std::size_t, const double*, double*);
template void apply_avx2<10>(const NodePoint*, const std::array<std::uint32_t, 10>*, std::size_t, const double*,
                             double*);

}  // namespace mg::detail
