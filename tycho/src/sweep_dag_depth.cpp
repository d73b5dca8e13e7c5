// The "boundary first" priority (sweep_dag.hpp): per cell, the fewest cells on a downwind
// path inside its part to a cell feeding another part, by a breadth-first search that
// starts from those cells and walks upwind.
#include <stdexcept>

#include "sweep_dag_flow.hpp"
#include "tycho/sweep_dag.hpp"

namespace tycho {

std::vector<std::uint32_t> boundary_depth(const Mesh& mesh, const std::vector<Vec3>& face_normals,
                                          const Vec3& omega, const mesh::Partition& partition,
                                          const std::vector<Index>& lagged) {
  const std::size_t n = mesh.cells.size();
  if (face_normals.size() != mesh.faces.size())
    throw std::invalid_argument("boundary_depth: one face normal per face expected");
  if (partition.part_of_cell.size() != n) throw std::invalid_argument("boundary_depth: one part per cell expected");
  std::vector<std::uint8_t> face_lagged(mesh.faces.size(), 0);
  for (const Index f : lagged) {
    if (f >= mesh.faces.size()) throw std::invalid_argument("boundary_depth: a lagged face beyond the faces");
    face_lagged[f] = 1;
  }

  // Upwind neighbours in the same part, 4 slots per cell (a tetrahedron has 4 faces); the
  // cells with a face feeding another part are the search's start, depth 1.
  const auto& part = partition.part_of_cell;
  std::vector<Index> upwind(4 * n);
  std::vector<std::uint8_t> ups(n, 0);
  std::vector<std::uint32_t> depth(n, 0);
  std::vector<Index> queue;
  queue.reserve(n);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    Index up = 0, down = 0;
    if (face_lagged[f] || !sweep_dag_detail::face_edge(mesh.faces[f], omega, face_normals[f], up, down)) continue;
    if (part[up] != part[down]) {
      if (depth[up] == 0) queue.push_back(up);
      depth[up] = 1;
    } else {
      upwind[4 * std::size_t{down} + ups[down]++] = up;
    }
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Index c = queue[head];
    for (std::size_t s = 4 * std::size_t{c}; s < 4 * std::size_t{c} + ups[c]; ++s) {
      const Index u = upwind[s];
      if (depth[u] == 0) {
        depth[u] = depth[c] + 1;
        queue.push_back(u);
      }
    }
  }
  return depth;
}

}  // namespace tycho
