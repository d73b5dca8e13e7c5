// The cell dual graph: cells as vertices, an edge per interior face. What METIS partitions
// and what the partition report counts neighbours on.
#pragma once
#include <vector>

#include "mesh/mesh.hpp"

namespace mesh {

// Compressed rows: the neighbours of cell c are adjacent[offsets[c] .. offsets[c+1]), in
// the order of the cell's local faces, boundary faces skipped (so at most 4 per cell).
struct DualGraph {
  std::vector<Index> offsets;   // cells + 1 entries
  std::vector<Index> adjacent;  // 2 x interior faces entries
  std::size_t vertices() const { return offsets.empty() ? 0 : offsets.size() - 1; }
};

DualGraph cell_dual_graph(const Mesh& mesh);

}  // namespace mesh
