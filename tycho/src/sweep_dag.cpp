// The order of one sweep direction (sweep_dag.hpp): the face normals every decision reads,
// and Kahn's algorithm on the cells with the deterministic lagging of cycles.
#include "tycho/sweep_dag.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "sweep_dag_flow.hpp"
#include "mesh/mesh_geometry.hpp"

namespace tycho {

namespace {

using sweep_dag_detail::face_edge;

Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

// Each cell's downwind neighbours in fixed slots, 4 per cell (a tetrahedron has 4 faces):
// slot k of cell c is [4c + k], k < downs[c], in ascending face order. No per-cell vectors.
struct DownwindSlots {
  std::vector<Index> cell, face;
  std::vector<std::uint8_t> downs;
  std::vector<std::uint8_t> upwind;  // per cell: its inflow faces (the edges into it)
};

DownwindSlots downwind_slots(const Mesh& mesh, const std::vector<Vec3>& normals, const Vec3& omega) {
  const std::size_t n = mesh.cells.size();
  DownwindSlots g{std::vector<Index>(4 * n), std::vector<Index>(4 * n), std::vector<std::uint8_t>(n, 0),
                  std::vector<std::uint8_t>(n, 0)};
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    Index up = 0, down = 0;
    if (!face_edge(mesh.faces[f], omega, normals[f], up, down)) continue;
    const std::size_t slot = 4 * std::size_t{up} + g.downs[up]++;
    g.cell[slot] = down;
    g.face[slot] = static_cast<Index>(f);
    ++g.upwind[down];
  }
  return g;
}

// Kahn's ready cells, lowest index first.
class ReadyCells {
 public:
  explicit ReadyCells(std::size_t capacity) { heap_.reserve(capacity); }
  bool empty() const { return heap_.empty(); }
  void push(Index c) {
    heap_.push_back(c);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  }
  Index pop() {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const Index c = heap_.back();
    heap_.pop_back();
    return c;
  }

 private:
  std::vector<Index> heap_;
};

// The waiting cells keyed (unresolved inflow faces, index), smallest first, for breaking a
// cycle. Filled only once the sweep first gets stuck (a mesh without cycles pays nothing);
// from then on every decrement pushes the cell's new key and stale keys are dropped when
// they reach the top (a cell's count only falls, so each key is pushed at most once).
class StuckCells {
 public:
  bool active() const { return active_; }
  void activate(const std::vector<std::uint8_t>& waiting, const std::vector<std::uint8_t>& done) {
    active_ = true;
    for (std::size_t c = 0; c < waiting.size(); ++c)
      if (!done[c] && waiting[c] > 0) heap_.push_back(key(waiting[c], static_cast<Index>(c)));
    std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  }
  void update(std::uint8_t waiting, Index c) {
    heap_.push_back(key(waiting, c));
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  }
  // Precondition: some cell is waiting (not done, waiting > 0), so a live key exists.
  Index pop_fewest(const std::vector<std::uint8_t>& waiting, const std::vector<std::uint8_t>& done) {
    for (;;) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      const std::uint64_t k = heap_.back();
      heap_.pop_back();
      const Index c = static_cast<Index>(k & 0xFFFFFFFFu);
      if (!done[c] && waiting[c] == (k >> 32)) return c;
    }
  }

 private:
  static std::uint64_t key(std::uint8_t waiting, Index c) { return (std::uint64_t{waiting} << 32) | c; }
  bool active_ = false;
  std::vector<std::uint64_t> heap_;
};

// Lags the inflow faces of cell c whose upwind cell is not yet swept, marking them.
void lag_unresolved_inflow(const Mesh& mesh, const std::vector<Vec3>& normals, const Vec3& omega, Index c,
                           const std::vector<std::uint8_t>& done, std::vector<std::uint8_t>& face_lagged,
                           std::vector<Index>& lagged) {
  for (const Index f : mesh.cells[c].faces) {
    Index up = 0, down = 0;
    if (face_edge(mesh.faces[f], omega, normals[f], up, down) && down == c && !done[up]) {
      face_lagged[f] = 1;
      lagged.push_back(f);
    }
  }
}

// The lexicographically smallest topological order of the graph without the marked faces.
std::vector<Index> smallest_order(const DownwindSlots& g, const std::vector<std::uint8_t>& face_lagged) {
  const std::size_t n = g.downs.size();
  std::vector<std::uint8_t> waiting(n, 0);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t s = 4 * c; s < 4 * c + g.downs[c]; ++s)
      if (!face_lagged[g.face[s]]) ++waiting[g.cell[s]];
  ReadyCells ready(n);
  for (std::size_t c = 0; c < n; ++c)
    if (waiting[c] == 0) ready.push(static_cast<Index>(c));
  std::vector<Index> order;
  order.reserve(n);
  while (!ready.empty()) {
    const Index c = ready.pop();
    order.push_back(c);
    for (std::size_t s = 4 * std::size_t{c}; s < 4 * std::size_t{c} + g.downs[c]; ++s)
      if (!face_lagged[g.face[s]] && --waiting[g.cell[s]] == 0) ready.push(g.cell[s]);
  }
  if (order.size() != n) throw std::logic_error("direction_order: a cycle survived the lagging");
  return order;
}

}  // namespace

std::vector<Vec3> face_area_normals(const Mesh& mesh) {
  std::vector<Vec3> normals(mesh.faces.size());
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const Face& face = mesh.faces[f];
    const Vec3& a = mesh.nodes[face.nodes[0]];
    const Vec3 u = mesh.nodes[face.nodes[1]] - a, v = mesh.nodes[face.nodes[2]] - a;
    Vec3 n{0.5 * (u.y * v.z - u.z * v.y), 0.5 * (u.z * v.x - u.x * v.z), 0.5 * (u.x * v.y - u.y * v.x)};
    const Vec3 inward = mesh.nodes[mesh::node_opposite(mesh.cells[face.cells[0]], face)] - a;
    if (n.x * inward.x + n.y * inward.y + n.z * inward.z > 0) n = {-n.x, -n.y, -n.z};
    normals[f] = n;
  }
  return normals;
}

DirectionOrder direction_order(const Mesh& mesh, const std::vector<Vec3>& face_normals, const Vec3& omega) {
  if (face_normals.size() != mesh.faces.size())
    throw std::invalid_argument("direction_order: one face normal per face expected");
  const std::size_t n = mesh.cells.size();
  const DownwindSlots g = downwind_slots(mesh, face_normals, omega);

  // Kahn's algorithm, lowest-numbered ready cell first; stuck with cells left means a cycle.
  DirectionOrder result;
  std::vector<std::uint8_t> waiting = g.upwind, done(n, 0), face_lagged(mesh.faces.size(), 0);
  ReadyCells ready(n);
  StuckCells stuck;
  for (std::size_t c = 0; c < n; ++c)
    if (waiting[c] == 0) ready.push(static_cast<Index>(c));
  result.order.reserve(n);
  while (result.order.size() < n) {
    if (ready.empty()) {
      if (!stuck.active()) stuck.activate(waiting, done);
      const Index c = stuck.pop_fewest(waiting, done);
      lag_unresolved_inflow(mesh, face_normals, omega, c, done, face_lagged, result.lagged);
      waiting[c] = 0;
      ready.push(c);
    }
    const Index c = ready.pop();
    done[c] = 1;
    result.order.push_back(c);
    for (std::size_t s = 4 * std::size_t{c}; s < 4 * std::size_t{c} + g.downs[c]; ++s) {
      const Index d = g.cell[s];
      if (done[d]) continue;  // a lagged face: d was swept before c
      if (--waiting[d] == 0)
        ready.push(d);
      else if (stuck.active())
        stuck.update(waiting[d], d);
    }
  }
  // With lagged faces, the order above is one topological order; the contract's is the
  // smallest, which lagged cells (placed when the sweep got stuck) need not follow.
  if (!result.lagged.empty()) {
    std::sort(result.lagged.begin(), result.lagged.end());
    result.order = smallest_order(g, face_lagged);
  }

  result.blevel.assign(n, 1);
  for (std::size_t i = n; i-- > 0;) {
    const Index c = result.order[i];
    std::uint32_t b = 1;
    for (std::size_t s = 4 * std::size_t{c}; s < 4 * std::size_t{c} + g.downs[c]; ++s)
      if (!face_lagged[g.face[s]]) b = std::max(b, result.blevel[g.cell[s]] + 1);
    result.blevel[c] = b;
  }
  return result;
}

}  // namespace tycho
