// Faces from cells (mesh_from_cells.hpp): every cell's four triangles, sorted by their
// nodes, so that the (at most two) cells of a triangle meet in one run.
#include "mesh/mesh_from_cells.hpp"

#include <algorithm>

#include "instrument/error.hpp"

namespace mesh {

Mesh mesh_from_cells(std::vector<Vec3> nodes, const std::vector<CellNodes>& cells, const std::string& file) {
  struct Side {
    std::array<Index, 3> key;  // sorted nodes
    Index cell;
    std::uint8_t local;
  };
  Mesh mesh;
  mesh.nodes = std::move(nodes);
  mesh.cells.resize(cells.size());
  std::vector<Side> sides(4 * cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) {
    mesh.cells[c].nodes = cells[c].nodes;
    mesh.cells[c].material = cells[c].material;
    for (std::uint8_t i = 0; i < 4; ++i) {
      Side& s = sides[4 * c + i];
      std::size_t k = 0;
      for (std::size_t j = 0; j < 4; ++j)
        if (j != i) s.key[k++] = cells[c].nodes[j];
      std::sort(s.key.begin(), s.key.end());
      s.cell = static_cast<Index>(c);
      s.local = i;
    }
  }
  // Sorted by triangle, then by cell and local face, so numbering follows the cells.
  std::sort(sides.begin(), sides.end(), [](const Side& a, const Side& b) {
    if (a.key != b.key) return a.key < b.key;
    return a.cell != b.cell ? a.cell < b.cell : a.local < b.local;
  });
  struct Run {
    std::size_t first, size;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < sides.size();) {
    std::size_t j = i + 1;
    while (j < sides.size() && sides[j].key == sides[i].key) ++j;
    if (j - i > 2)
      throw instrument::InputError(file, "cell " + std::to_string(sides[i + 2].cell),
                                   "non-manifold: the triangle of nodes " + std::to_string(sides[i].key[0]) + ", " +
                                       std::to_string(sides[i].key[1]) + ", " + std::to_string(sides[i].key[2]) +
                                       " is already shared by cells " + std::to_string(sides[i].cell) + " and " +
                                       std::to_string(sides[i + 1].cell));
    runs.push_back({i, j - i});
    i = j;
  }
  // Number faces in the order (cell, local face) of each run's first side.
  std::sort(runs.begin(), runs.end(), [&](const Run& a, const Run& b) {
    const Side &x = sides[a.first], &y = sides[b.first];
    return x.cell != y.cell ? x.cell < y.cell : x.local < y.local;
  });
  mesh.faces.resize(runs.size());
  for (std::size_t f = 0; f < runs.size(); ++f) {
    const Side& s0 = sides[runs[f].first];
    Face& face = mesh.faces[f];
    std::size_t k = 0;
    for (std::size_t j = 0; j < 4; ++j)
      if (j != s0.local) face.nodes[k++] = mesh.cells[s0.cell].nodes[j];
    face.cells = {s0.cell, kBoundary};
    mesh.cells[s0.cell].faces[s0.local] = static_cast<Index>(f);
    if (runs[f].size == 2) {
      const Side& s1 = sides[runs[f].first + 1];
      face.cells[1] = s1.cell;
      mesh.cells[s1.cell].faces[s1.local] = static_cast<Index>(f);
    }
  }
  return mesh;
}

}  // namespace mesh
