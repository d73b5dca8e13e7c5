// apply_cells eight cells at a time (p1_operator.hpp), built with -mavx512f only where the
// compiler targets x86-64 and called only where the CPU has AVX-512F.
//
// Lane l of every register takes the cell (or family) of lane l of a batch
// (item_batches.hpp): a whole batch at once. Each lane does exactly what the portable loop
// does for its cell and the batch is scattered in the same order (p1_cells.hpp), so the two
// give the same bits. The node values come by scalar loads put together in a register (a
// gather was slower on Zen 5) and the coordinates by loads transposed in registers
// (p1_points_avx512.hpp). The sums go back one by one, node by node (p1_cells.hpp): a
// gather, an add and a scatter of a slot's eight lanes, where no two name one node, ran 1.17
// times slower than one by one on the Intel VM and 1.06-1.10 times on Zen 5 (BENCHMARKS.md).
#include <immintrin.h>

#include "p1_cell_math.hpp"
#include "p1_cells.hpp"
#include "p1_points_avx512.hpp"

namespace mg::detail {

// Flattened, as the AVX2 build is (p1_cells_avx2.cpp), so the family's arithmetic stays in
// registers.
template <std::size_t N>
[[gnu::flatten]] double* apply_avx512(const NodePoint* points, const ItemBatches<N>& items,
                                      const BatchRange<N>& range, const double* u, double* y, double* kept) {
  const std::size_t q = range.end;
  RangeScatter<N> scatter(range, kept, Scatter::node_by_node);
  for (std::size_t b = range.begin; b < q; ++b) {
    if (b + kPrefetchBatches < q) prefetch_geometry<N>(points, items.batches[b + kPrefetchBatches]);
    const typename ItemBatches<N>::Batch& batch = items.batches[b];
    NodeValues<Lanes8, N> f;
    for (std::size_t n = 0; n < kGeometryNodes; ++n) load_points(points, batch[n].data(), f.x[n], f.y[n], f.z[n]);
    for (std::size_t n = 0; n < N; ++n) f.u[n] = load_values(u, batch[n].data());
    Lanes8 result[N];
    product(f, result);
    alignas(64) double out[N][kBatch];
    for (std::size_t n = 0; n < N; ++n) _mm512_store_pd(out[n], result[n]);
    scatter(b, batch, items.lanes(b), out, y);
  }
  return scatter.kept_end();
}

template double* apply_avx512<4>(const NodePoint*, const ItemBatches<4>&, const BatchRange<4>&, const double*,
                                 double*, double*);
template double* apply_avx512<10>(const NodePoint*, const ItemBatches<10>&, const BatchRange<10>&, const double*,
                                  double*, double*);

}  // namespace mg::detail
