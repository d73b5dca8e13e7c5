// The builds of the cell loop behind apply_cells (p1_operator.hpp); internal to it.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "multigrid/node_point.hpp"

namespace mg::detail {

// The cells are taken as four streams, stream l being cells [l q, (l + 1) q) with q =
// stream_length(n), one cell of each in turn: cells l q + b for l = 0..3, then b + 1. Four
// cells in a row then rarely share a node (far apart in Morton order), so a node's scatter does not wait on the one just
// before it (a store-to-load chain that made the cell-by-cell order run half as fast), and
// each stream still walks the Morton order. Only the last streams run out, so the live ones
// are always streams 0..k.
inline std::size_t stream_length(std::size_t n_cells) { return (n_cells + 3) / 4; }

// u: the values gathered, y: where K u is added; cells index points, u and y.
void apply_cells_portable(const NodePoint* points, const std::array<std::uint32_t, 4>* cells, std::size_t n_cells,
                          const double* u, double* y);
// The same for families (p1_cell_math.hpp: 10 node slots each), taken as four streams too.
void apply_families_portable(const NodePoint* points, const std::array<std::uint32_t, 10>* families,
                             std::size_t n_families, const double* u, double* y);
#ifdef MULTIGRID_HAVE_AVX2
void apply_families_avx2(const NodePoint* points, const std::array<std::uint32_t, 10>* families,
                         std::size_t n_families, const double* u, double* y);
void apply_cells_avx2(const NodePoint* points, const std::array<std::uint32_t, 4>* cells, std::size_t n_cells,
                      const double* u, double* y);
#endif

}  // namespace mg::detail
