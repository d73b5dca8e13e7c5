// apply_cells four cells at a time (p1_operator.hpp), built with -mavx2 only where the
// compiler targets x86-64 and called only where the CPU has AVX2.
//
// A batch of eight (item_batches.hpp) is taken in two halves: lane l of every register takes
// the cell (or family) of lane l of the batch, then of lane 4 + l. Each lane does exactly
// what the portable loop does for its cell and the batch is scattered in the same order
// (p1_cells.hpp), so the two give the same bits.
#include <immintrin.h>

#include "p1_cell_math.hpp"
#include "p1_cells.hpp"

namespace mg::detail {

namespace {

// Slot k of the four items of half h of a batch: four 32-byte node records transposed into
// x, y and z lanes.
template <std::size_t N>
inline void load_point(const NodePoint* points, const typename ItemBatches<N>::Batch& batch, std::size_t k,
                       std::size_t h, Lanes4& x, Lanes4& y, Lanes4& z) {
  const std::uint32_t* at = &batch[k][4 * h];
  const __m256d r0 = _mm256_load_pd(&points[at[0]].x);
  const __m256d r1 = _mm256_load_pd(&points[at[1]].x);
  const __m256d r2 = _mm256_load_pd(&points[at[2]].x);
  const __m256d r3 = _mm256_load_pd(&points[at[3]].x);
  const __m256d xz01 = _mm256_unpacklo_pd(r0, r1), xz23 = _mm256_unpacklo_pd(r2, r3);
  const __m256d yw01 = _mm256_unpackhi_pd(r0, r1), yw23 = _mm256_unpackhi_pd(r2, r3);
  x = _mm256_permute2f128_pd(xz01, xz23, 0x20);
  y = _mm256_permute2f128_pd(yw01, yw23, 0x20);
  z = _mm256_permute2f128_pd(xz01, xz23, 0x31);
}

// The values at slot k of the four items of half h.
template <std::size_t N>
inline Lanes4 load_value(const double* u, const typename ItemBatches<N>::Batch& batch, std::size_t k,
                         std::size_t h) {
  const std::uint32_t* at = &batch[k][4 * h];
  return _mm256_set_pd(u[at[3]], u[at[2]], u[at[1]], u[at[0]]);
}

}  // namespace

// Flattened: GCC otherwise keeps family_product a call, and a batch's 22 node vectors and
// 10 sums go through memory as its arguments; inlined they stay in registers or plain
// spills (1.15-1.2 times faster in the L3, 1.1 out of it; BENCHMARKS.md).
template <std::size_t N>
[[gnu::flatten]] double* apply_avx2(const NodePoint* points, const ItemBatches<N>& items, const BatchRange<N>& range,
                                    const double* u, double* y, double* kept) {
  const std::size_t q = range.end;
  RangeScatter<N> scatter(range, kept);  // slot by slot: node by node was slower here (RangeScatter)
  for (std::size_t b = range.begin; b < q; ++b) {
    if (b + kPrefetchBatches < q) prefetch_geometry<N>(points, items.batches[b + kPrefetchBatches]);
    const typename ItemBatches<N>::Batch& batch = items.batches[b];
    const std::size_t lanes = items.lanes(b);
    alignas(32) double out[N][kBatch];
    for (std::size_t h = 0; h < 2; ++h) {
      NodeValues<Lanes4, N> f;
      for (std::size_t n = 0; n < kGeometryNodes; ++n) load_point<N>(points, batch, n, h, f.x[n], f.y[n], f.z[n]);
      for (std::size_t n = 0; n < N; ++n) f.u[n] = load_value<N>(u, batch, n, h);
      Lanes4 result[N];
      product(f, result);
      for (std::size_t n = 0; n < N; ++n) _mm256_store_pd(&out[n][4 * h], result[n]);
    }
    scatter(b, batch, lanes, out, y);
  }
  return scatter.kept_end();
}

template double* apply_avx2<4>(const NodePoint*, const ItemBatches<4>&, const BatchRange<4>&, const double*, double*,
                               double*);
template double* apply_avx2<10>(const NodePoint*, const ItemBatches<10>&, const BatchRange<10>&, const double*,
                                double*, double*);

}  // namespace mg::detail
