#include "mesh/refine_quality.hpp"

#include <algorithm>
#include <cmath>

#include "mesh/mesh_geometry.hpp"

namespace mesh {

double volume_length_quality(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3* p[4] = {&a, &b, &c, &d};
  double sum2 = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      const double x = p[i]->x - p[j]->x, y = p[i]->y - p[j]->y, z = p[i]->z - p[j]->z;
      sum2 += x * x + y * y + z * z;
    }
  const double rms = std::sqrt(sum2 / 6);
  const double volume = std::abs(six_signed_volume(a, b, c, d)) / 6;
  return 6 * std::sqrt(2.0) * volume / (rms * rms * rms);
}

double min_cell_quality(const Mesh& mesh) {
  double q = mesh.cells.empty() ? 0 : 1;
  for (const Cell& cell : mesh.cells) {
    const auto& n = cell.nodes;
    q = std::min(q, volume_length_quality(mesh.nodes[n[0]], mesh.nodes[n[1]], mesh.nodes[n[2]], mesh.nodes[n[3]]));
  }
  return q;
}

}  // namespace mesh
