// The LD tetrahedron's per-cell record and its matrices (see ld_tet.hpp).
#include "tycho/ld_tet.hpp"

#include <algorithm>
#include <cmath>

namespace tycho {

LdTet ld_tet(const Mesh& mesh, Index c) {
  const Cell& cell = mesh.cells[c];
  const CellGeometry& g = mesh.geometry[c];
  LdTet t;
  t.volume = g.volume;
  for (std::size_t f = 0; f < 4; ++f) {
    const double a = g.face_area[f];
    const Vec3& n = g.outward_normal[f];
    t.area_normal[f] = {a * n.x, a * n.y, a * n.z};
    const Face& face = mesh.faces[cell.faces[f]];
    std::uint8_t on_face = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      const auto local = static_cast<std::uint8_t>(std::find(cell.nodes.begin(), cell.nodes.end(), face.nodes[k]) -
                                                   cell.nodes.begin());
      t.face_nodes[f][k] = local;
      on_face = static_cast<std::uint8_t>(on_face | (1u << local));
    }
    // The node off face f: its basis function falls from 1 to 0 across the cell towards f.
    std::size_t opposite = 0;
    while (on_face & (1u << opposite)) ++opposite;
    t.face_opposite[opposite] = static_cast<std::uint8_t>(f);
  }
  return t;
}

Vec3 ld_gradient(const LdTet& t, int node) {
  const std::size_t f = t.face_opposite[static_cast<std::size_t>(node)];
  const double s = -1 / (3 * t.volume);
  return {s * t.area_normal[f].x, s * t.area_normal[f].y, s * t.area_normal[f].z};
}

std::vector<LdTet> ld_tets(const Mesh& mesh) {
  std::vector<LdTet> out(mesh.cells.size());
  for (Index c = 0; c < mesh.cells.size(); ++c) out[c] = ld_tet(mesh, c);
  return out;
}

Matrix4 ld_mass_matrix(const LdTet& t) {
  Matrix4 m{};
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) m[i][j] = t.volume / 20 * (i == j ? 2 : 1);
  return m;
}

Matrix3 ld_face_mass_matrix(const LdTet& t, int f) {
  const Vec3& an = t.area_normal[static_cast<std::size_t>(f)];
  const double area = std::sqrt(an.x * an.x + an.y * an.y + an.z * an.z);
  Matrix3 m{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) m[i][j] = area / 12 * (i == j ? 2 : 1);
  return m;
}

Matrix4 ld_streaming_matrix(const LdTet& t, const Vec3& omega) {
  Matrix4 k{};
  for (std::size_t j = 0; j < 4; ++j) {
    const Vec3 g = ld_gradient(t, static_cast<int>(j));
    const double v = t.volume / 4 * (omega.x * g.x + omega.y * g.y + omega.z * g.z);
    for (std::size_t i = 0; i < 4; ++i) k[i][j] = v;
  }
  return k;
}

}  // namespace tycho
