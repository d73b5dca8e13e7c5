// The five Tycho2 cube meshes ([0,100]^3), read with every check: counts, volume, surface,
// closed cells, consistent normals across interior faces, boundary faces on the cube's faces.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "mesh/smesh_reader.hpp"

using namespace mesh;

namespace {

struct Expected {
  const char* file;
  std::size_t cells, faces, nodes, boundary_faces;
};

// Counts as the files' headers give them; boundary faces counted from their records with
// a separate script (second cell UINT64_MAX).
const Expected kCubes[] = {
    {"cube-12.smesh", 12, 30, 9, 12},           {"cube-208.smesh", 208, 464, 67, 96},
    {"cube-1374.smesh", 1374, 2988, 369, 480},  {"cube-4128.smesh", 4128, 8892, 1045, 1272},
    {"cube-10717.smesh", 10717, 22904, 2620, 2940}};

constexpr double kSide = 100;

double norm1(const Vec3& v) { return std::abs(v.x) + std::abs(v.y) + std::abs(v.z); }

}  // namespace

TEST_CASE("the five Tycho2 cubes read, check and measure as the cube [0,100]^3", "[smesh][cubes]") {
  for (const Expected& e : kCubes) {
    INFO(e.file);
    const Mesh m = read_smesh(std::string(TYCHO_MESH_DIR) + "/" + e.file);
    REQUIRE(m.cells.size() == e.cells);
    REQUIRE(m.faces.size() == e.faces);
    REQUIRE(m.nodes.size() == e.nodes);
    REQUIRE(m.geometry.size() == e.cells);
    double volume = 0, surface = 0, max_closure = 0;
    std::size_t boundary = 0, off_axis = 0, off_cube_face = 0;
    for (std::size_t c = 0; c < m.cells.size(); ++c) {
      const CellGeometry& g = m.geometry[c];
      CHECK(g.volume > 0);
      CHECK(m.cells[c].material == 1);
      volume += g.volume;
      Vec3 closure;
      double area_sum = 0;
      for (int i = 0; i < 4; ++i) {
        const Vec3& n = g.outward_normal[i];
        CHECK(std::abs(n.x * n.x + n.y * n.y + n.z * n.z - 1) < 1e-14);
        closure.x += n.x * g.face_area[i];
        closure.y += n.y * g.face_area[i];
        closure.z += n.z * g.face_area[i];
        area_sum += g.face_area[i];
        if (!(g.boundary_faces & (1 << i))) continue;
        ++boundary;
        surface += g.face_area[i];
        // Axis-aligned outward normal, and the face on the cube face it points through.
        const double ax = std::abs(n.x), ay = std::abs(n.y), az = std::abs(n.z);
        const int axis = ax > ay && ax > az ? 0 : (ay > az ? 1 : 2);
        const double comp[3] = {n.x, n.y, n.z};
        if (std::abs(std::abs(comp[axis]) - 1) > 1e-12) ++off_axis;
        const double plane = comp[axis] > 0 ? kSide : 0;
        for (Index v : m.faces[m.cells[c].faces[i]].nodes) {
          const Vec3& p = m.nodes[v];
          const double coord[3] = {p.x, p.y, p.z};
          if (coord[axis] != plane) ++off_cube_face;
        }
      }
      max_closure = std::max(max_closure, norm1(closure) / area_sum);
    }
    CHECK(std::abs(volume - kSide * kSide * kSide) <= 1e-12 * kSide * kSide * kSide);
    CHECK(std::abs(surface - 6 * kSide * kSide) <= 1e-12 * 6 * kSide * kSide);
    CHECK(boundary == e.boundary_faces);
    CHECK(off_axis == 0);
    CHECK(off_cube_face == 0);
    CHECK(max_closure < 1e-14);  // sum_f n_f A_f = 0 for every cell, relative to its area
    // An interior face seen from its two cells: opposite normals, the same area.
    double max_mismatch = 0;
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
      const Face& face = m.faces[f];
      if (face.on_boundary()) continue;
      Vec3 n[2];
      double a[2];
      for (int s = 0; s < 2; ++s) {
        const Cell& cell = m.cells[face.cells[s]];
        const int i = static_cast<int>(std::find(cell.faces.begin(), cell.faces.end(), f) - cell.faces.begin());
        REQUIRE(i < 4);
        n[s] = m.geometry[face.cells[s]].outward_normal[i];
        a[s] = m.geometry[face.cells[s]].face_area[i];
      }
      max_mismatch = std::max({max_mismatch, norm1({n[0].x + n[1].x, n[0].y + n[1].y, n[0].z + n[1].z}),
                               std::abs(a[0] - a[1]) / a[0]});
    }
    CHECK(max_mismatch < 1e-14);
  }
}
