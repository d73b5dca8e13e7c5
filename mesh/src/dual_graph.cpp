#include "mesh/dual_graph.hpp"

namespace mesh {

DualGraph cell_dual_graph(const Mesh& mesh) {
  DualGraph g;
  g.offsets.reserve(mesh.cells.size() + 1);
  g.adjacent.reserve(4 * mesh.cells.size());
  g.offsets.push_back(0);
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    for (Index f : mesh.cells[c].faces) {
      const Face& face = mesh.faces[f];
      if (face.on_boundary()) continue;
      g.adjacent.push_back(face.cells[0] == c ? face.cells[1] : face.cells[0]);
    }
    g.offsets.push_back(static_cast<Index>(g.adjacent.size()));
  }
  return g;
}

}  // namespace mesh
