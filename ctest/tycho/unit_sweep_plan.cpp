// The sweep plan's cell order and the octant scheme's priorities, on cube-1374 cut into two
// METIS parts: each rank's cells are its own, once each, along a Morton curve; the octant
// scheme sweeps one octant after another, slab by slab along the octant's diagonal, and in a
// slab the octant's directions in ascending order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "tycho/mesh_geometry.hpp"
#include "tycho/partition.hpp"
#include "tycho/problem.hpp"
#include "tycho/quadrature.hpp"
#include "tycho/smesh_reader.hpp"
#include "tycho/sweep_plan.hpp"

using namespace tycho;

namespace {

const std::string kMesh = std::string(TYCHO_MESH_DIR) + "/cube-1374.smesh";

Problem s4_problem() {
  Problem p;
  p.groups = 1;
  p.quadrature = level_symmetric(4, "test");  // 24 directions, 3 an octant
  p.fallback = default_material(1);
  return p;
}

}  // namespace

TEST_CASE("a rank's cells are its own, each once, in Morton order of their centroids") {
  Mesh mesh = read_smesh(kMesh);
  compute_geometry(mesh);
  const Partition part = metis_partition(mesh, 2, kMesh);
  const Problem problem = s4_problem();
  std::size_t total = 0;
  for (int rank = 0; rank < 2; ++rank) {
    const SweepPlan plan = make_sweep_plan(mesh, part, problem, rank, Priority::blevel, kMesh);
    const std::set<Index> distinct(plan.cells.begin(), plan.cells.end());
    REQUIRE(distinct.size() == plan.cells.size());
    for (Index c : plan.cells) REQUIRE(part.part_of_cell[c] == rank);
    total += plan.cells.size();
    // Morton order: the first half of the curve's cells lie in one half of the bounding
    // box split on the curve's top bit (z, the slowest coordinate), so consecutive cells
    // are near: their mean centroid distance is well below a random pair's.
    double consecutive = 0, spread = 0;
    for (std::size_t i = 1; i < plan.cells.size(); ++i) {
      const Vec3 a = cell_centroid(mesh, plan.cells[i - 1]), b = cell_centroid(mesh, plan.cells[i]);
      consecutive += std::hypot(a.x - b.x, a.y - b.y, a.z - b.z);
      const Vec3 r = cell_centroid(mesh, plan.cells[(i * 7919) % plan.cells.size()]);
      spread += std::hypot(a.x - r.x, a.y - r.y, a.z - r.z);
    }
    CHECK(consecutive < 0.25 * spread);
  }
  CHECK(total == mesh.cells.size());
}

TEST_CASE("octant priorities: octant after octant, slabs along the diagonal, directions in a slab") {
  Mesh mesh = read_smesh(kMesh);
  compute_geometry(mesh);
  const Partition part = metis_partition(mesh, 2, kMesh);
  const Problem problem = s4_problem();
  const std::size_t D = problem.quadrature.size();
  for (int rank = 0; rank < 2; ++rank) {
    const SweepPlan plan = make_sweep_plan(mesh, part, problem, rank, Priority::octant, kMesh);
    const std::size_t N = plan.cells.size();
    REQUIRE(N > 512);  // more than one slab
    for (std::size_t d = 0; d < D; ++d) {
      const std::uint8_t o = problem.quadrature.octant[d];
      const Vec3 diagonal{o & 1 ? -1.0 : 1.0, o & 2 ? -1.0 : 1.0, o & 4 ? -1.0 : 1.0};
      const auto along = [&](std::size_t i) {
        const Vec3 m = cell_centroid(mesh, plan.cells[i]);
        return diagonal.x * m.x + diagonal.y * m.y + diagonal.z * m.z;
      };
      // Every task of a later octant below every task of this one.
      std::uint32_t lowest = UINT32_MAX;
      for (std::size_t i = 0; i < N; ++i) lowest = std::min(lowest, plan.priority[plan.task(i, d)]);
      for (std::size_t e = 0; e < D; ++e)
        if (problem.quadrature.octant[e] > o)
          for (std::size_t i = 0; i < N; ++i) REQUIRE(plan.priority[plan.task(i, e)] < lowest);
      // Along the diagonal: further downwind, never a higher priority; exactly two slabs'
      // worth of distinct levels in one direction (cube-1374 / 2 ranks: 687 cells).
      std::vector<std::size_t> by_position(N);
      for (std::size_t i = 0; i < N; ++i) by_position[i] = i;
      std::sort(by_position.begin(), by_position.end(), [&](std::size_t a, std::size_t b) { return along(a) < along(b); });
      for (std::size_t k = 1; k < N; ++k)
        if (along(by_position[k]) > along(by_position[k - 1]))
          REQUIRE(plan.priority[plan.task(by_position[k], d)] <= plan.priority[plan.task(by_position[k - 1], d)]);
      std::set<std::uint32_t> levels;
      for (std::size_t i = 0; i < N; ++i) levels.insert(plan.priority[plan.task(i, d)]);
      CHECK(levels.size() == (N + 511) / 512);
      // In a slab, the octant's later directions just below this one, one level each.
      std::uint32_t later = 0;
      for (std::size_t e = d + 1; e < D; ++e) {
        if (problem.quadrature.octant[e] != o) continue;
        ++later;
        for (std::size_t i = 0; i < N; ++i) REQUIRE(plan.priority[plan.task(i, d)] - plan.priority[plan.task(i, e)] == later);
      }
    }
  }
}
