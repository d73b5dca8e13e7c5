#include "mesh/partition_report.hpp"

#include <algorithm>

namespace mesh {

std::vector<PartSummary> summarize_parts(const Mesh& mesh, const Partition& partition) {
  std::vector<PartSummary> parts(static_cast<std::size_t>(partition.parts));
  const auto& part = partition.part_of_cell;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) ++parts[static_cast<std::size_t>(part[c])].cells;
  for (const Face& face : mesh.faces) {
    const int a = part[face.cells[0]];
    if (face.on_boundary()) {
      ++parts[static_cast<std::size_t>(a)].mesh_boundary_faces;
      continue;
    }
    const int b = part[face.cells[1]];
    if (a == b) continue;
    ++parts[static_cast<std::size_t>(a)].partition_faces;
    ++parts[static_cast<std::size_t>(b)].partition_faces;
    parts[static_cast<std::size_t>(a)].neighbours.push_back(b);
    parts[static_cast<std::size_t>(b)].neighbours.push_back(a);
  }
  for (PartSummary& s : parts) {
    std::sort(s.neighbours.begin(), s.neighbours.end());
    s.neighbours.erase(std::unique(s.neighbours.begin(), s.neighbours.end()), s.neighbours.end());
  }
  return parts;
}

}  // namespace mesh
