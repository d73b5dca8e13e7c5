// Longest chain of parts along the cell sweep DAG of one direction (sweep_chain.hpp): a
// topological traversal (Kahn) carrying, per cell, the most parts a path to it has crossed.
#include "tycho/sweep_chain.hpp"

#include <algorithm>
#include <cmath>

namespace tycho {

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

}  // namespace

SweepChain sweep_chain(const Mesh& mesh, const mesh::Partition& partition, const Vec3& direction) {
  const std::size_t n = mesh.cells.size();
  // Each interior face oriented once, from its first cell's normal: the two cells' computed
  // normals need not be exact opposites, and a face must not be upwind from both sides.
  std::vector<Index> downwind_offsets(n + 1, 0), waiting(n, 0);
  struct Edge {
    Index from, to;
  };
  std::vector<Edge> edges;
  edges.reserve(mesh.faces.size());
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const Face& face = mesh.faces[f];
    if (face.on_boundary()) continue;
    const Index c0 = face.cells[0], c1 = face.cells[1];
    const Cell& cell = mesh.cells[c0];
    int local = 0;
    while (cell.faces[local] != f) ++local;
    const double w = dot(direction, mesh.geometry[c0].outward_normal[local]);
    if (w > 0)
      edges.push_back({c0, c1});
    else if (w < 0)
      edges.push_back({c1, c0});
  }
  for (const Edge& e : edges) ++downwind_offsets[e.from + 1], ++waiting[e.to];
  for (std::size_t c = 0; c < n; ++c) downwind_offsets[c + 1] += downwind_offsets[c];
  std::vector<Index> downwind(edges.size());
  {
    std::vector<Index> fill(downwind_offsets.begin(), downwind_offsets.end() - 1);
    for (const Edge& e : edges) downwind[fill[e.from]++] = e.to;
  }

  const auto& part = partition.part_of_cell;
  std::vector<int> crossed(n, 1);
  std::vector<Index> ready;
  ready.reserve(n);
  std::vector<char> done(n, 0);
  for (std::size_t c = 0; c < n; ++c)
    if (waiting[c] == 0) ready.push_back(static_cast<Index>(c));
  SweepChain result{direction, 0, 0};
  std::size_t head = 0, processed = 0, lowest_waiting = 0;
  while (processed < n) {
    if (head == ready.size()) {
      // A cycle: lag the remaining inflow faces of the lowest-numbered waiting cell.
      while (done[lowest_waiting] || waiting[lowest_waiting] == 0) ++lowest_waiting;
      result.lagged_faces += waiting[lowest_waiting];
      waiting[lowest_waiting] = 0;
      ready.push_back(static_cast<Index>(lowest_waiting));
    }
    const Index c = ready[head++];
    done[c] = 1;
    ++processed;
    result.parts_crossed = std::max(result.parts_crossed, crossed[c]);
    for (Index k = downwind_offsets[c]; k < downwind_offsets[c + 1]; ++k) {
      const Index d = downwind[k];
      if (done[d]) continue;  // an edge into a cell already freed by lagging
      crossed[d] = std::max(crossed[d], crossed[c] + (part[c] != part[d] ? 1 : 0));
      if (--waiting[d] == 0) ready.push_back(d);
    }
  }
  return result;
}

std::array<Vec3, 8> octant_diagonals() {
  const double s = 1 / std::sqrt(3.0);
  std::array<Vec3, 8> d;
  for (int i = 0; i < 8; ++i) d[i] = {(i & 1) ? -s : s, (i & 2) ? -s : s, (i & 4) ? -s : s};
  return d;
}

std::vector<SweepChain> octant_sweep_chains(const Mesh& mesh, const mesh::Partition& partition) {
  std::vector<SweepChain> chains;
  for (const Vec3& d : octant_diagonals()) chains.push_back(sweep_chain(mesh, partition, d));
  return chains;
}

}  // namespace tycho
