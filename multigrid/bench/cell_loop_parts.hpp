// The AVX-512 cell loop on families with one of its parts left out, for the smoother bench's
// --without-parts (smoother_bench.cpp): where the loop's time goes, on CPUs whose counters a
// virtual machine does not expose. Each variant times the loop of p1_cells_avx512.cpp with a
// part replaced by the cheapest stand-in that keeps the rest live; none gives the smoother's
// result (their sums are wrong by design), so none is a build of the smoother.
#pragma once
#include <cstddef>

#include "multigrid/cell_loop_split.hpp"
#include "multigrid/item_batches.hpp"
#include "multigrid/node_point.hpp"

namespace mg::bench {

// What a variant leaves out: nothing (the loop as p1_cells_avx512.cpp has it), the prefetch
// of the geometry, the loads of the node values u (their slots, as doubles, stand in), the
// product K u (u + x stands in), the scatter of the sums to y (their sum goes to y[0]), or
// all but the loads of the slots and the node records and the prefetch.
enum class LeftOut { nothing, prefetch, values, product, scatter, all_but_loads };
inline constexpr LeftOut kLeftOut[] = {LeftOut::nothing, LeftOut::prefetch, LeftOut::values,
                                       LeftOut::product, LeftOut::scatter,  LeftOut::all_but_loads};
const char* left_out_name(LeftOut part);

// y += (K u, with `part` left out) over the one-thread range of a level's families; the
// range must keep no lanes aside (one thread). Defined only where the AVX-512 build is.
void apply_families_without(LeftOut part, const NodePoint* points, const ItemBatches<10>& families,
                            const BatchRange<10>& range, const double* u, double* y);

}  // namespace mg::bench
