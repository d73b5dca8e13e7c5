// The AVX-512 cell loop's loads of eight nodes' records and values (p1_cells_avx512.cpp);
// also used by the smoother bench's loop with parts left out
// (bench/cell_loop_parts_avx512.cpp). Compiled with -mavx512f only.
#pragma once
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "multigrid/node_point.hpp"
#include "p1_cell_math.hpp"

namespace mg::detail {
inline namespace MG_CELL_MATH_ISA {

// Eight 32-byte node records transposed into x, y and z lanes: records 2k and 2k + 1 are
// one 64-byte register, whose pairs the unpacks and two-source permutes sort into lanes (as
// fast here as three gathers a corner).
inline void load_points(const NodePoint* points, const std::uint32_t* at, Lanes8& x, Lanes8& y, Lanes8& z) {
  __m512d pair[4];
  for (std::size_t k = 0; k < 4; ++k)
    pair[k] = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_load_pd(&points[at[2 * k]].x)),
                                 _mm256_load_pd(&points[at[2 * k + 1]].x), 1);
  // pair[k]: x y z w of record 2k, then of record 2k + 1.
  const __m512d xz0123 = _mm512_unpacklo_pd(pair[0], pair[1]);  // x0 x2 z0 z2 x1 x3 z1 z3
  const __m512d xz4567 = _mm512_unpacklo_pd(pair[2], pair[3]);  // x4 x6 z4 z6 x5 x7 z5 z7
  const __m512d yw0123 = _mm512_unpackhi_pd(pair[0], pair[1]);
  const __m512d yw4567 = _mm512_unpackhi_pd(pair[2], pair[3]);
  const __m512i first = _mm512_set_epi64(13, 9, 12, 8, 5, 1, 4, 0);   // lanes 0, 4, 1, 5 of each
  const __m512i second = _mm512_set_epi64(15, 11, 14, 10, 7, 3, 6, 2);  // lanes 2, 6, 3, 7 of each
  x = _mm512_permutex2var_pd(xz0123, first, xz4567);
  z = _mm512_permutex2var_pd(xz0123, second, xz4567);
  y = _mm512_permutex2var_pd(yw0123, first, yw4567);
}

// The node values at eight slots: eight scalar loads paired and inserted into one register.
// On Zen 5 (AVX-512) this ran 1.03 times faster than a gather of eight, in the L3 and out of
// it (BENCHMARKS.md); the values, and so the bits, are the gather's.
inline __m512d load_values(const double* u, const std::uint32_t* at) {
  const __m128d v01 = _mm_loadh_pd(_mm_load_sd(u + at[0]), u + at[1]);
  const __m128d v23 = _mm_loadh_pd(_mm_load_sd(u + at[2]), u + at[3]);
  const __m128d v45 = _mm_loadh_pd(_mm_load_sd(u + at[4]), u + at[5]);
  const __m128d v67 = _mm_loadh_pd(_mm_load_sd(u + at[6]), u + at[7]);
  const __m256d lo = _mm256_insertf128_pd(_mm256_castpd128_pd256(v01), v23, 1);
  const __m256d hi = _mm256_insertf128_pd(_mm256_castpd128_pd256(v45), v67, 1);
  return _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1);
}

}  // inline namespace MG_CELL_MATH_ISA
}  // namespace mg::detail
