// Which cell of a tetrahedral mesh a point lies in, and its barycentric coordinates there:
// multigrid's transfers between independent (non-nested) grids interpolate a coarse grid's linear
// function at each fine node this way. Cells are binned by their bounding boxes into a
// uniform grid of about one bucket per cell, so a query tests a handful of cells.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "mesh/mesh.hpp"

namespace mesh {

struct Location {
  Index cell = kBoundary;  // kBoundary: no cell near the point at all
  std::array<double, 4> weight{};        // barycentric, per corner in the cell's order
  double worst = -1e300;                 // the smallest weight: >= 0 inside, < 0 outside
};

class CellLocator {
 public:
  explicit CellLocator(const Mesh& mesh);  // keeps a reference to `mesh`
  // The cell whose smallest barycentric coordinate at p is largest among the cells near p
  // (ties to the lower cell): the cell holding p, or for a point just outside the mesh the
  // one it is least outside of. Searches p's bucket, then rings of buckets up to two away.
  Location locate(const Vec3& p) const;

 private:
  std::size_t bucket(int i, int j, int k) const;
  const Mesh& mesh_;
  Vec3 lo_;
  double inv_size_[3] = {1, 1, 1};
  int n_[3] = {1, 1, 1};
  std::vector<std::uint32_t> start_;  // cells_[start_[b] .. start_[b+1]) overlap bucket b
  std::vector<Index> cells_;
};

}  // namespace mesh
