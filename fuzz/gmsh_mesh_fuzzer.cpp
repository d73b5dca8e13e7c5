// The Gmsh .msh reader (mesh::parse_gmsh, every version and encoding) with the checks and
// the geometry read_gmsh applies. Bad input must be an InputError; an accepted mesh must
// hold what the sweep relies on, or the target aborts:
// - one element tag per cell, one node tag per node, every node used by a cell,
// - positive finite volumes and positive areas,
// - rebuilding its faces from its cells alone gives the same faces.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz_input.hpp"
#include "instrument/error.hpp"
#include "mesh/gmsh_reader.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"

using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mesh::GmshMesh gmsh;
  try {
    gmsh = mesh::parse_gmsh(fuzz::as_text(data, size), "fuzz.msh");
    mesh::check_gmsh_mesh(gmsh, "fuzz.msh");
  } catch (const instrument::InputError&) {
    return 0;
  }
  mesh::Mesh& mesh = gmsh.mesh;
  require(gmsh.element_tags.size() == mesh.cells.size(), "an element tag per cell");
  require(gmsh.node_tags.size() == mesh.nodes.size(), "a node tag per node");
  std::vector<bool> used(mesh.nodes.size(), false);
  std::vector<mesh::CellNodes> cells;
  for (const mesh::Cell& c : mesh.cells) {
    for (mesh::Index n : c.nodes) used[n] = true;
    require(c.material >= 1 && c.material <= 0x7FFFFFFFu, "a material from a physical tag");
    cells.push_back({c.nodes, c.material});
  }
  for (bool u : used) require(u, "every node kept is used");
  mesh::compute_geometry(mesh);
  for (const mesh::CellGeometry& g : mesh.geometry) {
    require(std::isfinite(g.volume) && g.volume > 0, "volume positive and finite");
    for (double a : g.face_area) require(std::isfinite(a) && a > 0, "face area positive and finite");
  }
  const mesh::Mesh rebuilt = mesh::mesh_from_cells(mesh.nodes, cells, "rebuilt");
  require(rebuilt.faces == mesh.faces, "the same faces from the cells alone");
  return 0;
}
