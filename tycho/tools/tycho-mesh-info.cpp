// tycho-mesh-info: reads a mesh as tycho does (every check applied) and prints what it holds.
//
//   tycho-mesh-info MESH   (.smesh, or Gmsh .msh 4.1 / 2.2, ASCII or binary)
//
// Prints the counts, the boundary faces, the total volume, the surface area (boundary faces),
// the smallest and largest cell volume and the cells and volume per material. A mesh that
// fails a check ends the program with one line `tycho-mesh-info: error: FILE:PLACE: what
// was expected` on stderr and exit status 1. No MPI: run it directly.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "mesh/mesh_reader.hpp"

namespace {

struct MaterialTotals {
  std::size_t cells = 0;
  double volume = 0;
};

void print_info(const std::string& path) {
  const mesh::Mesh mesh = mesh::read_mesh(path);
  std::size_t boundary = 0;
  double surface = 0;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    const auto& g = mesh.geometry[c];
    for (int i = 0; i < 4; ++i)
      if (g.boundary_faces & (1u << i)) {
        ++boundary;
        surface += g.face_area[i];
      }
  }
  double total = 0, smallest = mesh.geometry[0].volume, largest = smallest;
  std::map<std::uint32_t, MaterialTotals> materials;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    const double v = mesh.geometry[c].volume;
    total += v;
    smallest = std::min(smallest, v);
    largest = std::max(largest, v);
    auto& m = materials[mesh.cells[c].material];
    ++m.cells;
    m.volume += v;
  }
  std::printf("mesh %s\n", path.c_str());
  std::printf("cells %zu, faces %zu (%zu on the boundary, %zu interior), nodes %zu\n", mesh.cells.size(),
              mesh.faces.size(), boundary, mesh.faces.size() - boundary, mesh.nodes.size());
  std::printf("total volume %.12g (sum of the cell volumes)\n", total);
  std::printf("surface area %.12g (sum of the boundary face areas)\n", surface);
  std::printf("cell volume min %.12g, max %.12g\n", smallest, largest);
  for (const auto& [id, m] : materials)
    std::printf("material %u: cells %zu, volume %.12g\n", id, m.cells, m.volume);
}

}  // namespace

int main(int argc, char** argv) {
  std::string mesh;
  instrument::OptionTable table("tycho-mesh-info");
  table.notes("Reads a mesh as tycho does (every check applied) and prints what it holds.")
      .positional_file("MESH", mesh, instrument::Arity::required,
                       "a Tycho2 .smesh or Gmsh .msh (4.1/2.2, ASCII or binary)");
  return instrument::run_serial_app(argc, argv, table, [&] {
    print_info(mesh);
    return 0;
  });
}
