// Volumes, outward normals and face areas (mesh_geometry.hpp).
#include "mesh/mesh_geometry.hpp"

#include <cmath>

namespace mesh {

namespace {

Vec3 minus(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

}  // namespace

double six_signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return dot(cross(minus(b, a), minus(c, a)), minus(d, a));
}

Vec3 cell_centroid(const Mesh& mesh, Index cell) { return corners_centroid(mesh.nodes, mesh.cells[cell].nodes); }

Vec3 corners_centroid(const std::vector<Vec3>& nodes, const std::array<Index, 4>& corners) {
  Vec3 m{0, 0, 0};
  for (Index n : corners) {
    m.x += nodes[n].x / 4;
    m.y += nodes[n].y / 4;
    m.z += nodes[n].z / 4;
  }
  return m;
}

Index node_opposite(const Cell& cell, const Face& face) {
  for (Index v : cell.nodes)
    if (v != face.nodes[0] && v != face.nodes[1] && v != face.nodes[2]) return v;
  return cell.nodes[0];  // unreachable for a checked mesh
}

void compute_geometry(Mesh& mesh) {
  mesh.geometry.assign(mesh.cells.size(), CellGeometry{});
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    const Cell& cell = mesh.cells[c];
    CellGeometry& g = mesh.geometry[c];
    const auto& x = mesh.nodes;
    g.volume = std::abs(six_signed_volume(x[cell.nodes[0]], x[cell.nodes[1]], x[cell.nodes[2]], x[cell.nodes[3]])) / 6;
    for (std::size_t i = 0; i < 4; ++i) {
      const Face& face = mesh.faces[cell.faces[i]];
      const Vec3& a = x[face.nodes[0]];
      Vec3 n = cross(minus(x[face.nodes[1]], a), minus(x[face.nodes[2]], a));
      // Outward: away from the node the face does not hold.
      if (dot(n, minus(x[node_opposite(cell, face)], a)) > 0) n = {-n.x, -n.y, -n.z};
      const double length = std::sqrt(dot(n, n));
      g.outward_normal[i] = {n.x / length, n.y / length, n.z / length};
      g.face_area[i] = length / 2;
      if (face.on_boundary()) g.boundary_faces = static_cast<std::uint8_t>(g.boundary_faces | (1u << i));
    }
  }
}

}  // namespace mesh
