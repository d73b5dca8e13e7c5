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
// transposed into x, y and z lanes, and the four values.
template <std::size_t N>
inline void load_node(const NodePoint* points, const double* u, const std::array<std::uint32_t, N>* const at[4],
                      std::size_t k, Lanes4& x, Lanes4& y, Lanes4& z, Lanes4& value) {
  const __m256d r0 = _mm256_load_pd(&points[(*at[0])[k]].x);
  const __m256d r1 = _mm256_load_pd(&points[(*at[1])[k]].x);
  const __m256d r2 = _mm256_load_pd(&points[(*at[2])[k]].x);
  const __m256d r3 = _mm256_load_pd(&points[(*at[3])[k]].x);
  const __m256d xz01 = _mm256_unpacklo_pd(r0, r1), xz23 = _mm256_unpacklo_pd(r2, r3);
  const __m256d yw01 = _mm256_unpackhi_pd(r0, r1), yw23 = _mm256_unpackhi_pd(r2, r3);
  x = _mm256_permute2f128_pd(xz01, xz23, 0x20);
  y = _mm256_permute2f128_pd(yw01, yw23, 0x20);
  z = _mm256_permute2f128_pd(xz01, xz23, 0x31);
  value = _mm256_set_pd(u[(*at[3])[k]], u[(*at[2])[k]], u[(*at[1])[k]], u[(*at[0])[k]]);
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

void apply_cells_avx2(const NodePoint* points, const std::array<std::uint32_t, 4>* cells, std::size_t n_cells,
                      const double* u, double* y) {
  const std::size_t q = stream_length(n_cells);
  for (std::size_t b = 0; b < q; ++b) {
    const std::array<std::uint32_t, 4>* cell[4];
    const std::size_t lanes = batch(cells, n_cells, q, b, cell);
    CellCorners<Lanes4> p;
    for (std::size_t k = 0; k < 4; ++k) load_node(points, u, cell, k, p.x[k], p.y[k], p.z[k], p.u[k]);
    Lanes4 result[4];
    cell_product(p, result);
    alignas(32) double out[4][4];
    for (std::size_t k = 0; k < 4; ++k) _mm256_store_pd(out[k], result[k]);
    for (std::size_t l = 0; l < lanes; ++l)
      for (std::size_t k = 0; k < 4; ++k) y[(*cell[l])[k]] += out[k][l];
  }
}

void apply_families_avx2(const NodePoint* points, const std::array<std::uint32_t, 10>* families,
                         std::size_t n_families, const double* u, double* y) {
  const std::size_t q = stream_length(n_families);
  for (std::size_t b = 0; b < q; ++b) {
    const std::array<std::uint32_t, 10>* family[4];
    const std::size_t lanes = batch(families, n_families, q, b, family);
    FamilyNodes<Lanes4> f;
    for (std::size_t n = 0; n < 10; ++n) load_node(points, u, family, n, f.x[n], f.y[n], f.z[n], f.u[n]);
    Lanes4 acc[10];
    family_product(f, acc);
    alignas(32) double out[10][4];
    for (std::size_t n = 0; n < 10; ++n) _mm256_store_pd(out[n], acc[n]);
    for (std::size_t l = 0; l < lanes; ++l)
      for (std::size_t n = 0; n < 10; ++n) y[(*family[l])[n]] += out[n][l];
  }
}

}  // namespace mg::detail
