// apply_cells four cells at a time (p1_operator.hpp), built with -mavx2 only where the
// compiler targets x86-64 and called only where the CPU has AVX2.
//
// Lane l of every register takes the cells of stream l (p1_cells.hpp), and each lane does
// exactly what the portable loop does for its cell, in the same scatter order, so the two
// give the same bits. Where the last stream has run out, its lane repeats stream 0's cell
// and does not scatter it.
#include <immintrin.h>

#include <algorithm>

#include "p1_cells.hpp"

namespace mg::detail {

namespace {

struct Lanes {
  __m256d x, y, z;
};

// Corner k of the four cells: four 32-byte node records transposed into x, y and z lanes.
inline Lanes corner(const NodePoint* points, const std::array<std::uint32_t, 4>* const cell[4], std::size_t k) {
  const __m256d r0 = _mm256_load_pd(&points[(*cell[0])[k]].x);
  const __m256d r1 = _mm256_load_pd(&points[(*cell[1])[k]].x);
  const __m256d r2 = _mm256_load_pd(&points[(*cell[2])[k]].x);
  const __m256d r3 = _mm256_load_pd(&points[(*cell[3])[k]].x);
  const __m256d xz01 = _mm256_unpacklo_pd(r0, r1), xz23 = _mm256_unpacklo_pd(r2, r3);
  const __m256d yw01 = _mm256_unpackhi_pd(r0, r1), yw23 = _mm256_unpackhi_pd(r2, r3);
  return {_mm256_permute2f128_pd(xz01, xz23, 0x20), _mm256_permute2f128_pd(yw01, yw23, 0x20),
          _mm256_permute2f128_pd(xz01, xz23, 0x31)};
}

inline __m256d values(const double* u, const std::array<std::uint32_t, 4>* const cell[4], std::size_t k) {
  return _mm256_set_pd(u[(*cell[3])[k]], u[(*cell[2])[k]], u[(*cell[1])[k]], u[(*cell[0])[k]]);
}

}  // namespace

void apply_cells_avx2(const NodePoint* points, const std::array<std::uint32_t, 4>* cells, std::size_t n_cells,
                      const double* u, double* y) {
  const __m256d sign = _mm256_set1_pd(-0.0), six = _mm256_set1_pd(6.0), one = _mm256_set1_pd(1.0);
  const std::size_t q = stream_length(n_cells);
  for (std::size_t b = 0; b < q; ++b) {
    const std::array<std::uint32_t, 4>* cell[4];
    std::size_t lanes = 0;
    for (std::size_t l = 0; l < 4; ++l) {
      const std::size_t c = l * q + b;
      if (c < n_cells) ++lanes;
      cell[l] = &cells[c < n_cells ? c : b];
    }

    const Lanes p0 = corner(points, cell, 0), p1 = corner(points, cell, 1), p2 = corner(points, cell, 2),
                p3 = corner(points, cell, 3);
    const __m256d e1x = p1.x - p0.x, e1y = p1.y - p0.y, e1z = p1.z - p0.z;
    const __m256d e2x = p2.x - p0.x, e2y = p2.y - p0.y, e2z = p2.z - p0.z;
    const __m256d e3x = p3.x - p0.x, e3y = p3.y - p0.y, e3z = p3.z - p0.z;
    const __m256d c1x = e2y * e3z - e2z * e3y, c1y = e2z * e3x - e2x * e3z, c1z = e2x * e3y - e2y * e3x;
    const __m256d c2x = e3y * e1z - e3z * e1y, c2y = e3z * e1x - e3x * e1z, c2z = e3x * e1y - e3y * e1x;
    const __m256d c3x = e1y * e2z - e1z * e2y, c3y = e1z * e2x - e1x * e2z, c3z = e1x * e2y - e1y * e2x;
    const __m256d det = e1x * c1x + e1y * c1y + e1z * c1z;
    const __m256d scale = one / (six * _mm256_andnot_pd(sign, det));

    const __m256d u0 = values(u, cell, 0);
    const __m256d d1 = values(u, cell, 1) - u0, d2 = values(u, cell, 2) - u0, d3 = values(u, cell, 3) - u0;
    const __m256d gx = c1x * d1 + c2x * d2 + c3x * d3;
    const __m256d gy = c1y * d1 + c2y * d2 + c3y * d3;
    const __m256d gz = c1z * d1 + c2z * d2 + c3z * d3;
    alignas(32) double out[4][4];
    const __m256d y1 = scale * (c1x * gx + c1y * gy + c1z * gz);
    const __m256d y2 = scale * (c2x * gx + c2y * gy + c2z * gz);
    const __m256d y3 = scale * (c3x * gx + c3y * gy + c3z * gz);
    _mm256_store_pd(out[0], _mm256_xor_pd(sign, y1 + y2 + y3));
    _mm256_store_pd(out[1], y1);
    _mm256_store_pd(out[2], y2);
    _mm256_store_pd(out[3], y3);
    for (std::size_t l = 0; l < lanes; ++l)
      for (std::size_t k = 0; k < 4; ++k) y[(*cell[l])[k]] += out[k][l];
  }
}

}  // namespace mg::detail
