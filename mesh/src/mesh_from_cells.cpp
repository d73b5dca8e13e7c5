// Faces from cells (mesh_from_cells.hpp): every cell's four triangles, sorted by their
// nodes, so that the (at most two) cells of a triangle meet in one run.
#include "mesh/mesh_from_cells.hpp"

#include <algorithm>

#include "instrument/error.hpp"

namespace mesh {

namespace {

// The faces of mesh (its cells' nodes set) from its sides' pairs, numbered in the order
// (cell, local face) of each triangle's first side (lowest cell, then local face).
void number_faces(Mesh& mesh, const SidePairs& pairs) {
  const std::size_t n_sides = 4 * mesh.cells.size();
  const auto first = [&pairs](std::size_t s) {
    const Index other = pairs.other_cell[s];
    return other == kBoundary || 4 * std::size_t{other} + pairs.other_local[s] > s;
  };
  std::size_t n_faces = 0;
  for (std::size_t s = 0; s < n_sides; ++s) n_faces += first(s);
  mesh.faces.resize(n_faces);
  Index f = 0;
  for (std::size_t s = 0; s < n_sides; ++s) {
    if (!first(s)) continue;
    const Index c = static_cast<Index>(s / 4);
    const std::size_t local = s % 4;
    Face& face = mesh.faces[f];
    std::size_t k = 0;
    for (std::size_t j = 0; j < 4; ++j)
      if (j != local) face.nodes[k++] = mesh.cells[c].nodes[j];
    face.cells = {c, pairs.other_cell[s]};
    mesh.cells[c].faces[local] = f;
    if (pairs.other_cell[s] != kBoundary) mesh.cells[pairs.other_cell[s]].faces[pairs.other_local[s]] = f;
    ++f;
  }
}

}  // namespace

Mesh mesh_from_cells(std::vector<Vec3> nodes, const std::vector<CellNodes>& cells, const std::string& file) {
  Mesh mesh;
  mesh.nodes = std::move(nodes);
  mesh.cells.resize(cells.size());
  const std::size_t n_sides = 4 * cells.size();
  // Side 4 c + i is local face i of cell c; its triangle's nodes sorted are (key0, key1,
  // key2). The sides are bucketed by key0 (a counting sort, so each bucket is in side order),
  // then each small bucket sorted by (key1, key2, side): the order of one sort of all sides
  // by (key, cell, local face), at a fraction of its cost.
  struct Side {
    Index key1, key2, cell;
    std::uint32_t local;
    bool operator<(const Side& o) const {
      if (key1 != o.key1) return key1 < o.key1;
      if (key2 != o.key2) return key2 < o.key2;
      return cell != o.cell ? cell < o.cell : local < o.local;
    }
  };
  // The sorted triangle of side 4 c + i (computed twice: to count, then to place, which
  // keeps one array of sides in memory, not two).
  const auto triangle = [&cells](std::size_t c, std::size_t i) {
    std::array<Index, 3> key;
    std::size_t k = 0;
    for (std::size_t j = 0; j < 4; ++j)
      if (j != i) key[k++] = cells[c].nodes[j];
    // Three compare-and-swaps (a sorting network) sort the three.
    if (key[0] > key[1]) std::swap(key[0], key[1]);
    if (key[1] > key[2]) std::swap(key[1], key[2]);
    if (key[0] > key[1]) std::swap(key[0], key[1]);
    return key;
  };
  std::vector<std::size_t> bucket(mesh.nodes.size() + 1, 0);
  for (std::size_t c = 0; c < cells.size(); ++c) {
    mesh.cells[c].nodes = cells[c].nodes;
    mesh.cells[c].material = cells[c].material;
    for (std::size_t i = 0; i < 4; ++i) ++bucket[triangle(c, i)[0] + 1];
  }
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n) bucket[n + 1] += bucket[n];
  std::vector<Side> sorted(n_sides);
  {
    std::vector<std::size_t> fill(bucket.begin(), bucket.end() - 1);
    for (std::size_t c = 0; c < cells.size(); ++c)
      for (std::size_t i = 0; i < 4; ++i) {
        const std::array<Index, 3> key = triangle(c, i);
        sorted[fill[key[0]]++] = {key[1], key[2], static_cast<Index>(c), static_cast<std::uint32_t>(i)};
      }
  }
  SidePairs pairs;
  pairs.other_cell.assign(n_sides, kBoundary);
  pairs.other_local.assign(n_sides, 0);
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n) {
    const auto b = sorted.begin() + static_cast<std::ptrdiff_t>(bucket[n]);
    const auto e = sorted.begin() + static_cast<std::ptrdiff_t>(bucket[n + 1]);
    std::sort(b, e);
    for (auto i = b; i != e;) {
      auto j = i + 1;
      while (j != e && j->key1 == i->key1 && j->key2 == i->key2) ++j;
      if (j - i > 2)
        throw instrument::InputError(file, "cell " + std::to_string(i[2].cell),
                                     "non-manifold: the triangle of nodes " + std::to_string(n) + ", " +
                                         std::to_string(i->key1) + ", " + std::to_string(i->key2) +
                                         " is already shared by cells " + std::to_string(i[0].cell) + " and " +
                                         std::to_string(i[1].cell));
      if (j - i == 2) {
        const std::size_t s0 = 4 * std::size_t{i[0].cell} + i[0].local, s1 = 4 * std::size_t{i[1].cell} + i[1].local;
        pairs.other_cell[s0] = i[1].cell;
        pairs.other_local[s0] = static_cast<std::uint8_t>(i[1].local);
        pairs.other_cell[s1] = i[0].cell;
        pairs.other_local[s1] = static_cast<std::uint8_t>(i[0].local);
      }
      i = j;
    }
  }
  sorted = {};
  number_faces(mesh, pairs);
  return mesh;
}

Mesh mesh_from_side_pairs(std::vector<Vec3> nodes, const std::vector<CellNodes>& cells, const SidePairs& pairs) {
  Mesh mesh;
  mesh.nodes = std::move(nodes);
  mesh.cells.resize(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) {
    mesh.cells[c].nodes = cells[c].nodes;
    mesh.cells[c].material = cells[c].material;
  }
  number_faces(mesh, pairs);
  return mesh;
}

}  // namespace mesh
