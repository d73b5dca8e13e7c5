// The chain on the graph of parts (sweep_chain.hpp, part_graph_chain): net flow per pair
// of parts, a depth-first search that drops back edges, the longest path by dynamic
// programming in reverse post-order.
#include <algorithm>
#include <map>
#include <utility>

#include "tycho/sweep_chain.hpp"

namespace tycho {

PartGraphChain part_graph_chain(const Mesh& mesh, const mesh::Partition& partition, const Vec3& direction) {
  const auto& part = partition.part_of_cell;
  // Net flow from the lower-numbered part of a pair to the higher.
  std::map<std::pair<int, int>, double> flow;
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const Face& face = mesh.faces[f];
    if (face.on_boundary()) continue;
    const int a = part[face.cells[0]], b = part[face.cells[1]];
    if (a == b) continue;
    const Cell& cell = mesh.cells[face.cells[0]];
    int local = 0;
    while (cell.faces[local] != f) ++local;
    const CellGeometry& g = mesh.geometry[face.cells[0]];
    const Vec3& n = g.outward_normal[local];
    const double w = (direction.x * n.x + direction.y * n.y + direction.z * n.z) * g.face_area[local];
    if (a < b)
      flow[{a, b}] += w;
    else
      flow[{b, a}] -= w;
  }
  const auto parts = static_cast<std::size_t>(partition.parts);
  std::vector<std::vector<int>> downstream(parts);
  for (const auto& [pair, w] : flow) {  // pairs ascending: each list comes out ascending
    if (w > 0) downstream[static_cast<std::size_t>(pair.first)].push_back(pair.second);
    if (w < 0) downstream[static_cast<std::size_t>(pair.second)].push_back(pair.first);
  }
  for (auto& list : downstream) std::sort(list.begin(), list.end());

  PartGraphChain result{direction, 0, 0};
  enum : char { kNew, kOnPath, kDone };
  std::vector<char> state(parts, kNew);
  std::vector<int> post_order;
  post_order.reserve(parts);
  std::vector<std::vector<int>> kept(parts);
  std::vector<std::pair<int, std::size_t>> stack;  // part, next downstream index
  for (std::size_t root = 0; root < parts; ++root) {
    if (state[root] != kNew) continue;
    stack.push_back({static_cast<int>(root), 0});
    state[root] = kOnPath;
    while (!stack.empty()) {
      auto& [p, next] = stack.back();
      const auto& out = downstream[static_cast<std::size_t>(p)];
      if (next == out.size()) {
        state[static_cast<std::size_t>(p)] = kDone;
        post_order.push_back(p);
        stack.pop_back();
        continue;
      }
      const int q = out[next++];
      if (state[static_cast<std::size_t>(q)] == kOnPath) {
        ++result.dropped_edges;
        continue;
      }
      kept[static_cast<std::size_t>(p)].push_back(q);
      if (state[static_cast<std::size_t>(q)] == kNew) {
        state[static_cast<std::size_t>(q)] = kOnPath;
        stack.push_back({q, 0});
      }
    }
  }
  // Reverse post-order is a topological order of the kept edges: the longest path ending
  // at each part, in parts.
  std::vector<int> longest(parts, 1);
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
    const auto p = static_cast<std::size_t>(*it);
    result.parts_crossed = std::max(result.parts_crossed, longest[p]);
    for (int q : kept[p]) longest[static_cast<std::size_t>(q)] = std::max(longest[static_cast<std::size_t>(q)], longest[p] + 1);
  }
  return result;
}

std::vector<PartGraphChain> octant_part_graph_chains(const Mesh& mesh, const mesh::Partition& partition) {
  std::vector<PartGraphChain> chains;
  for (const Vec3& d : octant_diagonals()) chains.push_back(part_graph_chain(mesh, partition, d));
  return chains;
}

}  // namespace tycho
