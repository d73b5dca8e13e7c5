// The Tycho2 serial mesh (mesh::parse_smesh) with the checks and the geometry read_smesh
// applies. Bad input must be an InputError; an accepted mesh must hold what the sweep
// relies on, or the target aborts:
// - formatting it gives back the input bytes (every field is read losslessly),
// - positive finite volumes, unit outward normals, positive areas, closed cells,
// - rebuilding its faces from its cells alone finds the same number of faces and passes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz_input.hpp"
#include "instrument/error.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/smesh_reader.hpp"

using fuzz::require;

namespace {

double longest_edge_squared(const mesh::Mesh& mesh, const mesh::Cell& cell) {
  double l2 = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      const mesh::Vec3 &a = mesh.nodes[cell.nodes[i]], &b = mesh.nodes[cell.nodes[j]];
      l2 = std::max(l2, (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
    }
  return l2;
}

void check_geometry(const mesh::Mesh& mesh) {
  require(mesh.geometry.size() == mesh.cells.size(), "one geometry entry per cell");
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    const mesh::CellGeometry& g = mesh.geometry[c];
    require(std::isfinite(g.volume) && g.volume > 0, "volume positive and finite");
    double sx = 0, sy = 0, sz = 0;
    for (int i = 0; i < 4; ++i) {
      const mesh::Vec3& n = g.outward_normal[i];
      require(std::isfinite(g.face_area[i]) && g.face_area[i] > 0, "face area positive and finite");
      require(std::abs(n.x * n.x + n.y * n.y + n.z * n.z - 1) < 1e-12, "unit normal");
      sx += n.x * g.face_area[i];
      sy += n.y * g.face_area[i];
      sz += n.z * g.face_area[i];
    }
    // Closure: sum_f n_f A_f = 0 up to the rounding of the cross products, each at most
    // (longest edge)^2 (a sliver's areas may be far smaller than that).
    require(std::abs(sx) + std::abs(sy) + std::abs(sz) <= 1e-12 * longest_edge_squared(mesh, mesh.cells[c]),
            "closed cell");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = fuzz::as_text(data, size);
  mesh::Mesh mesh;
  try {
    mesh = mesh::parse_smesh(bytes, "fuzz.smesh");
    mesh::check_mesh(mesh, "fuzz.smesh");
  } catch (const instrument::InputError&) {
    return 0;
  }
  mesh::compute_geometry(mesh);
  require(mesh::format_smesh(mesh) == bytes, "format(parse(bytes)) == bytes");
  check_geometry(mesh);

  std::vector<mesh::CellNodes> cells;
  cells.reserve(mesh.cells.size());
  for (const mesh::Cell& c : mesh.cells) cells.push_back({c.nodes, c.material});
  mesh::Mesh rebuilt;
  try {
    rebuilt = mesh::mesh_from_cells(mesh.nodes, cells, "rebuilt");
    mesh::check_mesh(rebuilt, "rebuilt");
  } catch (const instrument::InputError& e) {
    std::fprintf(stderr, "tycho_mesh: an accepted mesh's cells were refused when rebuilt: %s\n", e.what());
    std::abort();
  }
  require(rebuilt.faces.size() == mesh.faces.size(), "the same faces from the cells alone");
  return 0;
}
