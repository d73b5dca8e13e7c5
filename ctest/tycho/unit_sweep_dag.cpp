// The order of a sweep direction (sweep_dag.hpp): face area normals, the upwind->downwind
// graph of cells, the lagging of cycles, b-levels, the order and the boundary-first depth.
// Hand-worked on the built-in meshes; on five cubes of side 100 from 48 to 10368 cells (Kuhn's,
// whose faces on the planes x = y and the like lie along S8 directions, and jittered ones,
// unstructured) every S8 direction is checked against the contract and against plain
// reference versions written here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/partition.hpp"
#include "tycho/quadrature.hpp"
#include "tycho/sweep_dag.hpp"

#include "../mesh/jittered_cube.hpp"

using namespace tycho;
using namespace mesh;

namespace {

struct NamedMesh {
  std::string name;
  Mesh mesh;
};

// [0,100]^3 meshed five ways: Kuhn's 2^3 cubes (48 cells), whose S8 directions run along
// some faces (omega.n = 0), and 3^3, 6^3, 9^3 and 12^3 cubes with the interior nodes jittered
// (162 to 10368 cells; ../mesh/jittered_cube.hpp): sweep graphs of an unstructured mesh.
std::vector<NamedMesh> cubes() {
  std::vector<NamedMesh> ms;
  ms.push_back({"Kuhn cube 2", kuhn_cube_mesh(2, 100.0)});
  for (int n : {3, 6, 9, 12}) ms.push_back({"jittered cube " + std::to_string(n), meshtest::jittered_cube(n, 100.0)});
  return ms;
}

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

struct Edge {
  Index up, down, face;
  friend bool operator==(const Edge&, const Edge&) = default;
};

// The flow rule of the contract, written again: s = dot(omega, normal[f]).
std::vector<Edge> edges_of(const Mesh& m, const std::vector<Vec3>& normals, const Vec3& omega) {
  std::vector<Edge> edges;
  for (std::size_t f = 0; f < m.faces.size(); ++f) {
    const Face& face = m.faces[f];
    if (face.on_boundary()) continue;
    const double s = dot(omega, normals[f]);
    if (s > 0) edges.push_back({face.cells[0], face.cells[1], static_cast<Index>(f)});
    if (s < 0) edges.push_back({face.cells[1], face.cells[0], static_cast<Index>(f)});
  }
  return edges;
}

std::vector<char> face_flags(std::size_t faces, const std::vector<Index>& marked) {
  std::vector<char> flags(faces, 0);
  for (Index f : marked) flags[f] = 1;
  return flags;
}

// Kahn's algorithm over the edges not skipped, lowest ready cell first (a std::set): the
// smallest topological order, shorter than n when a cycle remains.
std::vector<Index> smallest_order(std::size_t n, const std::vector<Edge>& edges, const std::vector<char>& skip) {
  std::vector<std::vector<Index>> down(n);
  std::vector<int> waiting(n, 0);
  for (const Edge& e : edges)
    if (!skip[e.face]) down[e.up].push_back(e.down), ++waiting[e.down];
  std::set<Index> ready;
  for (Index c = 0; c < n; ++c)
    if (waiting[c] == 0) ready.insert(c);
  std::vector<Index> order;
  while (!ready.empty()) {
    const Index c = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(c);
    for (Index d : down[c])
      if (--waiting[d] == 0) ready.insert(d);
  }
  return order;
}

bool has_cycle(std::size_t n, const std::vector<Edge>& edges, const std::vector<char>& skip) {
  return smallest_order(n, edges, skip).size() < n;
}

// The contract's cycle breaking, plainly: first-in first-out Kahn, and when stuck a scan of
// every cell for the waiting one with the fewest unresolved inflow faces (lowest index).
std::vector<Index> reference_lagged(std::size_t n, const std::vector<Edge>& edges) {
  std::vector<std::vector<Edge>> down(n), up(n);
  std::vector<int> waiting(n, 0);
  for (const Edge& e : edges) down[e.up].push_back(e), up[e.down].push_back(e), ++waiting[e.down];
  std::vector<char> done(n, 0);
  std::vector<Index> queue, lagged;
  for (Index c = 0; c < n; ++c)
    if (waiting[c] == 0) queue.push_back(c);
  std::size_t head = 0;
  while (head < n) {
    if (head == queue.size()) {
      Index best = 0;
      int fewest = 99;
      for (Index c = 0; c < n; ++c)
        if (!done[c] && waiting[c] > 0 && waiting[c] < fewest) best = c, fewest = waiting[c];
      for (const Edge& e : up[best])
        if (!done[e.up]) lagged.push_back(e.face);
      waiting[best] = 0;
      done[best] = 1;  // taken now: its lagged inflow must not count it down again
      queue.push_back(best);
    }
    const Index c = queue[head++];
    done[c] = 1;
    for (const Edge& e : down[c])
      if (!done[e.down] && --waiting[e.down] == 0) queue.push_back(e.down);
  }
  std::sort(lagged.begin(), lagged.end());
  return lagged;
}

// Every clause of DirectionOrder's contract for this omega.
void check_contract(const Mesh& m, const std::vector<Vec3>& normals, const Vec3& omega, const DirectionOrder& o) {
  const std::size_t n = m.cells.size();
  REQUIRE(o.order.size() == n);
  REQUIRE(o.blevel.size() == n);
  std::vector<std::size_t> position(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(o.order[i] < n);
    REQUIRE(position[o.order[i]] == n);  // each cell once: a permutation
    position[o.order[i]] = i;
  }
  const std::vector<Edge> edges = edges_of(m, normals, omega);
  for (std::size_t i = 0; i < o.lagged.size(); ++i) {
    if (i > 0) REQUIRE(o.lagged[i - 1] < o.lagged[i]);
    REQUIRE(o.lagged[i] < m.faces.size());
    REQUIRE(!m.faces[o.lagged[i]].on_boundary());
    REQUIRE(dot(omega, normals[o.lagged[i]]) != 0);
  }
  const std::vector<char> lagged = face_flags(m.faces.size(), o.lagged);
  std::vector<std::vector<Index>> down(n);
  for (const Edge& e : edges)
    if (!lagged[e.face]) down[e.up].push_back(e.down);
  std::vector<std::uint32_t> blevel(n, 1);
  for (std::size_t i = n; i-- > 0;)
    for (Index d : down[o.order[i]]) blevel[o.order[i]] = std::max(blevel[o.order[i]], blevel[d] + 1);
  std::size_t misplaced = 0;
  for (const Edge& e : edges)
    if (!lagged[e.face] && position[e.up] > position[e.down]) ++misplaced;
  CHECK(misplaced == 0);
  CHECK(o.blevel == blevel);
  CHECK(o.order == smallest_order(n, edges, lagged));
}

// omega reversed: each face's s changes sign and nothing else, so every edge is reversed.
Vec3 minus(const Vec3& v) { return {-v.x, -v.y, -v.z}; }

Mesh twisted_prism(double twist, bool along_twist) { return twisted_prism_mesh(twist, along_twist); }

Index face_between(const Mesh& m, Index a, Index b) {
  for (Index f : m.cells[a].faces)
    if (m.faces[f].cells[0] == b || m.faces[f].cells[1] == b) return f;
  return kBoundary;
}

}  // namespace

TEST_CASE("face_area_normals: the corner tetrahedron's faces by hand", "[sweep_dag]") {
  const Mesh m = corner_tet_mesh();
  const std::vector<Vec3> n = face_area_normals(m);
  REQUIRE(n.size() == 4);
  // Face i is opposite node i: (1,1,1)/sqrt(3) x sqrt(3)/2, then the three coordinate planes.
  const Vec3 expected[4] = {{0.5, 0.5, 0.5}, {-0.5, 0, 0}, {0, -0.5, 0}, {0, 0, -0.5}};
  for (int f = 0; f < 4; ++f) {
    INFO("face " << f);
    CHECK(n[f].x == Approx(expected[f].x).margin(1e-15));
    CHECK(n[f].y == Approx(expected[f].y).margin(1e-15));
    CHECK(n[f].z == Approx(expected[f].z).margin(1e-15));
  }
}

TEST_CASE("face_area_normals on the cubes: the area, out of cells[0], closed cells", "[sweep_dag][cubes]") {
  for (const auto& [name, m] : cubes()) {
    INFO(name);
    const std::vector<Vec3> n = face_area_normals(m);
    REQUIRE(n.size() == m.faces.size());
    std::size_t bad_area = 0, bad_side = 0, open_cells = 0;
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
      const Face& face = m.faces[f];
      const Index c0 = face.cells[0];
      int local = 0;
      while (m.cells[c0].faces[local] != f) ++local;
      const double area = m.geometry[c0].face_area[local];
      if (std::abs(std::sqrt(dot(n[f], n[f])) - area) > 1e-12 * area) ++bad_area;
      Vec3 face_centre, cell_centre;
      for (Index v : face.nodes) {
        face_centre.x += m.nodes[v].x / 3, face_centre.y += m.nodes[v].y / 3, face_centre.z += m.nodes[v].z / 3;
      }
      for (Index v : m.cells[c0].nodes) {
        cell_centre.x += m.nodes[v].x / 4, cell_centre.y += m.nodes[v].y / 4, cell_centre.z += m.nodes[v].z / 4;
      }
      const Vec3 out{face_centre.x - cell_centre.x, face_centre.y - cell_centre.y, face_centre.z - cell_centre.z};
      if (!(dot(n[f], out) > 0)) ++bad_side;
    }
    for (std::size_t c = 0; c < m.cells.size(); ++c) {
      Vec3 sum;
      double areas = 0;
      for (Index f : m.cells[c].faces) {
        const double sign = m.faces[f].cells[0] == c ? 1 : -1;
        sum.x += sign * n[f].x, sum.y += sign * n[f].y, sum.z += sign * n[f].z;
        areas += std::sqrt(dot(n[f], n[f]));
      }
      if (std::sqrt(dot(sum, sum)) > 1e-13 * areas) ++open_cells;
    }
    CHECK(bad_area == 0);
    CHECK(bad_side == 0);
    CHECK(open_cells == 0);
  }
}

TEST_CASE("two tets across x = 0: one edge, its direction set by omega.x", "[sweep_dag]") {
  const Mesh m = two_tet_mesh();
  const std::vector<Vec3> n = face_area_normals(m);
  // Face 1 (cell 0's face opposite (1,0,0)) is the shared one, its normal out of cell 0: -x.
  REQUIRE(m.faces[1].cells[0] == 0);
  REQUIRE(m.faces[1].cells[1] == 1);
  CHECK(n[1] == Vec3{-0.5, 0, 0});
  const DirectionOrder along_x = direction_order(m, n, {1, 0, 0});  // cell 1 (x < 0) feeds cell 0
  CHECK(along_x.order == std::vector<Index>{1, 0});
  CHECK(along_x.blevel == std::vector<std::uint32_t>{1, 2});
  CHECK(along_x.lagged.empty());
  const DirectionOrder back = direction_order(m, n, {-0.6, 0.8, 0});
  CHECK(back.order == std::vector<Index>{0, 1});
  CHECK(back.blevel == std::vector<std::uint32_t>{2, 1});
  // omega in the shared plane: s == 0 exactly, no edge: both cells free, by index.
  const DirectionOrder across = direction_order(m, n, {0, 0.6, 0.8});
  CHECK(across.order == std::vector<Index>{0, 1});
  CHECK(across.blevel == std::vector<std::uint32_t>{1, 1});
}

TEST_CASE("Kuhn's cube: the hexagon of six tets sorted by omega's components", "[sweep_dag]") {
  // Cell k is the region x_a >= x_b >= x_c for the k-th order (a, b, c) of the axes: 0 xyz,
  // 1 xzy, 2 yxz, 3 yzx, 4 zxy, 5 zyx. Its inner faces lie on x_a = x_b, x_b = x_c, and
  // omega carries a cell across x_a = x_b into the one with b first when omega_b > omega_a.
  // With omega_x > omega_y > omega_z the flow sorts the orders: zyx (5) is the source, xyz
  // (0) the sink, two paths of 4 cells: 5 -> 3 (yzx) -> 2 (yxz) -> 0, 5 -> 4 (zxy) -> 1 (xzy) -> 0.
  const Mesh m = kuhn_cube_mesh(1, 1);
  const std::vector<Vec3> n = face_area_normals(m);
  const Vec3 omega{0.8, 0.5, 0.3};
  std::vector<std::pair<Index, Index>> edges;
  for (const Edge& e : edges_of(m, n, omega)) edges.emplace_back(e.up, e.down);
  std::sort(edges.begin(), edges.end());
  CHECK(edges == std::vector<std::pair<Index, Index>>{{1, 0}, {2, 0}, {3, 2}, {4, 1}, {5, 3}, {5, 4}});
  const DirectionOrder o = direction_order(m, n, omega);
  CHECK(o.lagged.empty());
  CHECK(o.blevel == std::vector<std::uint32_t>{1, 2, 2, 3, 3, 4});
  // Ready after 5: {3, 4}, 3 first; then {2, 4}: 2; 0 waits for 1: 4, 1, 0.
  CHECK(o.order == std::vector<Index>{5, 3, 2, 4, 1, 0});
  check_contract(m, n, omega, o);
  // Reversed: every edge reversed, 0 the source.
  const DirectionOrder r = direction_order(m, n, minus(omega));
  CHECK(r.blevel == std::vector<std::uint32_t>{4, 3, 3, 2, 2, 1});
  CHECK(r.order == std::vector<Index>{0, 1, 2, 3, 4, 5});
  // Along the diagonal every inner face (on x_a = x_b) has s == 0 exactly: no edge at all.
  const DirectionOrder diagonal = direction_order(m, n, {1, 1, 1});
  CHECK(diagonal.blevel == std::vector<std::uint32_t>(6, 1));
  CHECK(diagonal.order == std::vector<Index>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("boundary_depth on Kuhn's cube in two parts, by hand", "[sweep_dag]") {
  const Mesh m = kuhn_cube_mesh(1, 1);
  const std::vector<Vec3> n = face_area_normals(m);
  const Vec3 omega{0.8, 0.5, 0.3};  // 5 -> 3 -> 2 -> 0 and 5 -> 4 -> 1 -> 0, as above
  // Part 0 = {2, 3, 4, 5}, part 1 = {0, 1}: 2 feeds 0 and 4 feeds 1 (depth 1); 3 -> 2 (2);
  // 5 reaches 4 in one step (2, not 3 through 3 -> 2); nothing in part 1 feeds part 0 (0).
  const Partition p{2, {1, 1, 0, 0, 0, 0}};
  CHECK(boundary_depth(m, n, omega, p, {}) == std::vector<std::uint32_t>{0, 0, 1, 2, 1, 2});
  // Lag the face 4 -> 1: 4 no longer feeds part 1 and has no other way out (0); 5 now goes
  // round by 3 and 2 (3).
  Index face_4_1 = kBoundary;
  for (const Edge& e : edges_of(m, n, omega))
    if (e.up == 4 && e.down == 1) face_4_1 = e.face;
  REQUIRE(face_4_1 != kBoundary);
  CHECK(boundary_depth(m, n, omega, p, {face_4_1}) == std::vector<std::uint32_t>{0, 0, 1, 2, 0, 3});
  // One part: nothing feeds another part, every depth 0.
  CHECK(boundary_depth(m, n, omega, Partition{1, std::vector<std::int32_t>(6, 0)}, {}) ==
        std::vector<std::uint32_t>(6, 0));
  // Reversed, same parts: 0 feeds 2 and 1 feeds 4 (1 each); part 0 feeds nothing (its
  // edges 2 -> 3 -> 5 and 4 -> 5 stay inside it): 0.
  CHECK(boundary_depth(m, n, minus(omega), p, {}) == std::vector<std::uint32_t>{1, 1, 0, 0, 0, 0});
}

TEST_CASE("the cubes, every S8 direction: the contract, the reference lagging, determinism",
          "[sweep_dag][cubes]") {
  const Quadrature s8 = level_symmetric(8, "test");
  for (const auto& [name, m] : cubes()) {
    INFO(name);
    const std::vector<Vec3> n = face_area_normals(m);
    std::size_t lagged_total = 0;
    for (const Vec3& omega : s8.omega) {
      INFO("omega " << omega.x << " " << omega.y << " " << omega.z);
      const DirectionOrder o = direction_order(m, n, omega);
      check_contract(m, n, omega, o);
      const std::vector<Edge> edges = edges_of(m, n, omega);
      CHECK(o.lagged == reference_lagged(m.cells.size(), edges));
      CHECK(has_cycle(m.cells.size(), edges, face_flags(m.faces.size(), {})) == !o.lagged.empty());
      const DirectionOrder again = direction_order(m, n, omega);
      CHECK(again.order == o.order);
      CHECK(again.blevel == o.blevel);
      CHECK(again.lagged == o.lagged);
      lagged_total += o.lagged.size();
    }
    WARN(name << ": " << lagged_total << " faces lagged over the 80 S8 directions");
  }
}

TEST_CASE("boundary_depth on a jittered cube of 1296 cells in 4 METIS parts: shortest paths, every S8 direction",
          "[sweep_dag][cubes]") {
  const Mesh m = meshtest::jittered_cube(6, 100.0);
  const std::vector<Vec3> n = face_area_normals(m);
  const Partition p = metis_partition(m, 4, "P");
  const auto& part = p.part_of_cell;
  for (const Vec3& omega : level_symmetric(8, "test").omega) {
    INFO("omega " << omega.x << " " << omega.y << " " << omega.z);
    const DirectionOrder o = direction_order(m, n, omega);
    const std::vector<std::uint32_t> depth = boundary_depth(m, n, omega, p, o.lagged);
    const std::vector<char> lagged = face_flags(m.faces.size(), o.lagged);
    // The fewest cells to a feeding cell obey: 1 for a feeding cell, else 1 + the least
    // depth over its same-part downwind neighbours that have one, else 0.
    std::vector<char> feeds(m.cells.size(), 0);
    std::vector<std::uint32_t> best(m.cells.size(), 0);
    for (const Edge& e : edges_of(m, n, omega)) {
      if (lagged[e.face]) continue;
      if (part[e.up] != part[e.down]) feeds[e.up] = 1;
      else if (depth[e.down] > 0 && (best[e.up] == 0 || depth[e.down] + 1 < best[e.up])) best[e.up] = depth[e.down] + 1;
    }
    std::size_t wrong = 0, reached = 0;
    for (std::size_t c = 0; c < m.cells.size(); ++c) {
      if (depth[c] != (feeds[c] ? 1 : best[c])) ++wrong;
      if (depth[c] > 0) ++reached;
    }
    CHECK(wrong == 0);
    CHECK(reached > 0);
  }
}

TEST_CASE("a twisted prism: a ring of six cells that z runs round, one face lagged", "[sweep_dag][cycle]") {
  const Mesh m = twisted_prism(30, true);
  const std::vector<Vec3> n = face_area_normals(m);
  const Vec3 up{0, 0, 1};
  // By the signs of s: 0 (bottom) feeds 2, 4, 6; 3, 5, 7 feed 1 (top); the ring runs
  // 2 -> 3 -> 6 -> 7 -> 4 -> 5 -> 2.
  std::vector<std::pair<Index, Index>> edges;
  for (const Edge& e : edges_of(m, n, up)) edges.emplace_back(e.up, e.down);
  std::sort(edges.begin(), edges.end());
  CHECK(edges == std::vector<std::pair<Index, Index>>{
                     {0, 2}, {0, 4}, {0, 6}, {2, 3}, {3, 1}, {3, 6}, {4, 5}, {5, 1}, {5, 2}, {6, 7}, {7, 1}, {7, 4}});
  // After 0 every ring cell waits for one face, 1 for three: stuck. The fewest is 1, the
  // lowest such cell 2: its face from 5 is lagged. Then the ring in turn, 1 last; the
  // b-levels count back from 1 along 0 -> 2 -> 3 -> 6 -> 7 -> 4 -> 5 -> 1.
  const DirectionOrder o = direction_order(m, n, up);
  CHECK(o.lagged == std::vector<Index>{face_between(m, 2, 5)});
  CHECK(o.order == std::vector<Index>{0, 2, 3, 6, 7, 4, 5, 1});
  CHECK(o.blevel == std::vector<std::uint32_t>{8, 1, 7, 6, 3, 2, 5, 4});
  check_contract(m, n, up, o);
  // Downwards the ring turns the other way; again cell 2 is taken, lagging its face from 3.
  const DirectionOrder down = direction_order(m, n, minus(up));
  CHECK(down.lagged == std::vector<Index>{face_between(m, 2, 3)});
  check_contract(m, n, minus(up), down);
  // Every S8 direction: the reference lagging, a cycle exactly when something is lagged.
  std::size_t cyclic = 0;
  for (const Vec3& omega : level_symmetric(8, "test").omega) {
    INFO("omega " << omega.x << " " << omega.y << " " << omega.z);
    const DirectionOrder d = direction_order(m, n, omega);
    check_contract(m, n, omega, d);
    const std::vector<Edge> all = edges_of(m, n, omega);
    CHECK(d.lagged == reference_lagged(m.cells.size(), all));
    CHECK(has_cycle(m.cells.size(), all, face_flags(m.faces.size(), {})) == !d.lagged.empty());
    if (!d.lagged.empty()) ++cyclic;
  }
  CHECK(cyclic > 0);
}

TEST_CASE("the same prism cut by the other diagonals has no cycle: nothing lagged", "[sweep_dag][cycle]") {
  const Mesh m = twisted_prism(30, false);
  const std::vector<Vec3> n = face_area_normals(m);
  for (const Vec3& omega : level_symmetric(8, "test").omega) {
    INFO("omega " << omega.x << " " << omega.y << " " << omega.z);
    const DirectionOrder d = direction_order(m, n, omega);
    CHECK(d.lagged.empty());
    CHECK_FALSE(has_cycle(m.cells.size(), edges_of(m, n, omega), face_flags(m.faces.size(), {})));
    check_contract(m, n, omega, d);
  }
}
