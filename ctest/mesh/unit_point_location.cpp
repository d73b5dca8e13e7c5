// Point location (point_location.hpp): the locator finds the cell holding a point, with
// barycentric weights that rebuild it; a point just outside gets its nearest cell and a
// negative weight that says by how much.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>

#include "jittered_cube.hpp"
#include "mesh/point_location.hpp"

TEST_CASE("the locator: the cell holding a point, weights that rebuild it; outside, a negative weight") {
  const mesh::Mesh m = meshtest::jittered_cube(3);
  const mesh::CellLocator at(m);
  for (int k = 0; k < 200; ++k) {
    const mesh::Vec3 p{0.5 + 0.49 * std::sin(1.3 * k), 0.5 + 0.49 * std::sin(2.1 * k + 1), 0.5 + 0.49 * std::sin(0.7 * k + 2)};
    const mesh::Location l = at.locate(p);
    INFO("point " << k);
    REQUIRE(l.cell < m.cells.size());
    CHECK(l.worst >= -1e-12);
    mesh::Vec3 q{};
    double sum = 0;
    for (std::size_t c = 0; c < 4; ++c) {
      const mesh::Vec3& v = m.nodes[m.cells[l.cell].nodes[c]];
      q = {q.x + l.weight[c] * v.x, q.y + l.weight[c] * v.y, q.z + l.weight[c] * v.z};
      sum += l.weight[c];
    }
    CHECK(std::fabs(sum - 1) < 1e-12);
    CHECK(std::fabs(q.x - p.x) + std::fabs(q.y - p.y) + std::fabs(q.z - p.z) < 1e-12);
  }
  // A tenth of a small cube (1/3) beyond the face x = 1: outside by about 0.1 in weights.
  const mesh::Location out = at.locate({1.0 + 0.1 / 3, 0.5, 0.5});
  REQUIRE(out.cell < m.cells.size());
  CHECK(out.worst < -0.05);
  CHECK(out.worst > -0.2);
}
