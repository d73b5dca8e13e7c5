// The AVX-512 family loop with a part left out (cell_loop_parts.hpp), compiled with
// -mavx512f like p1_cells_avx512.cpp, whose loop it repeats part by part.
#include <immintrin.h>

#include <stdexcept>

#include "../src/p1_cell_math.hpp"
#include "../src/p1_cells.hpp"
#include "../src/p1_points_avx512.hpp"
#include "cell_loop_parts.hpp"

namespace mg::bench {

const char* left_out_name(LeftOut part) {
  switch (part) {
    case LeftOut::nothing: return "nothing";
    case LeftOut::prefetch: return "the prefetch";
    case LeftOut::values: return "the loads of u";
    case LeftOut::product: return "the product";
    case LeftOut::scatter: return "the scatter";
    case LeftOut::all_but_loads: return "all but the loads";
  }
  return "?";
}

namespace {

using mg::kBatch;
using detail::kGeometryNodes;
using detail::Lanes8;

template <LeftOut Part>
[[gnu::flatten]] void families_without(const NodePoint* points, const ItemBatches<10>& items,
                                       const BatchRange<10>& range, const double* u, double* y) {
  constexpr std::size_t N = 10;
  constexpr bool prefetch = Part != LeftOut::prefetch;
  constexpr bool values = Part != LeftOut::values && Part != LeftOut::all_but_loads;
  constexpr bool product = Part != LeftOut::product && Part != LeftOut::all_but_loads;
  constexpr bool scatter = Part != LeftOut::scatter && Part != LeftOut::all_but_loads;
  const std::size_t q = range.end;
  __m512d sink = _mm512_setzero_pd();  // what keeps the results live without the scatter
  for (std::size_t b = range.begin; b < q; ++b) {
    if (prefetch && b + detail::kPrefetchBatches < q)
      detail::prefetch_geometry<N>(points, items.batches[b + detail::kPrefetchBatches]);
    const ItemBatches<N>::Batch& batch = items.batches[b];
    detail::NodeValues<Lanes8, N> f;
    for (std::size_t n = 0; n < kGeometryNodes; ++n)
      detail::load_points(points, batch[n].data(), f.x[n], f.y[n], f.z[n]);
    for (std::size_t n = 0; n < N; ++n) {
      // Without the loads of u the slots themselves, as doubles: normal numbers (their bits as
      // doubles would be subnormal, which slows the product down).
      f.u[n] = values ? detail::load_values(u, batch[n].data())
                      : _mm512_cvtepi32_pd(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(batch[n].data())));
    }
    Lanes8 result[N];
    if constexpr (product) {
      detail::product(f, result);
    } else {
      for (std::size_t n = 0; n < N; ++n) result[n] = f.u[n] + f.x[n % kGeometryNodes];
    }
    if constexpr (scatter) {
      alignas(64) double out[N][kBatch];
      for (std::size_t n = 0; n < N; ++n) _mm512_store_pd(out[n], result[n]);
      detail::scatter_batch<N>(batch, items.lanes(b), out, y);
    } else {
      for (std::size_t n = 0; n < N; ++n) sink = _mm512_add_pd(sink, result[n]);
    }
  }
  alignas(64) double lanes[kBatch];
  _mm512_store_pd(lanes, sink);  // not _mm512_reduce_add_pd, which trips GCC 12's -Wuninitialized
  for (double v : lanes) y[0] += v;
}

}  // namespace

void apply_families_without(LeftOut part, const NodePoint* points, const ItemBatches<10>& families,
                            const BatchRange<10>& range, const double* u, double* y) {
  if (!range.kept.empty()) throw std::logic_error("apply_families_without: a range with lanes kept aside");
  switch (part) {
    case LeftOut::nothing: return families_without<LeftOut::nothing>(points, families, range, u, y);
    case LeftOut::prefetch: return families_without<LeftOut::prefetch>(points, families, range, u, y);
    case LeftOut::values: return families_without<LeftOut::values>(points, families, range, u, y);
    case LeftOut::product: return families_without<LeftOut::product>(points, families, range, u, y);
    case LeftOut::scatter: return families_without<LeftOut::scatter>(points, families, range, u, y);
    case LeftOut::all_but_loads: return families_without<LeftOut::all_but_loads>(points, families, range, u, y);
  }
}

}  // namespace mg::bench
