// The manufactured-solution check (mms.hpp): a linear psi is reproduced by LD to round-off
// (inhomogeneous inflow from the boundary, and on a mesh whose sweep has a cycle, lagged and
// iterated), a constant by the step scheme, and the sine solution's L2 error falls at order
// 2 (LD) and 1 (step) on an unstructured cube of side 100 refined twice (the jittered cube of
// ../mesh/jittered_cube.hpp: 162, 1296, 10368 cells). Its tetrahedron rule is tested with
// the mesh library (ctest/mesh/unit_tet_quadrature.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/mesh_examples.hpp"
#include "tycho/mms.hpp"
#include "tycho/quadrature.hpp"
#include "mesh/refine.hpp"

#include "../mesh/jittered_cube.hpp"

using namespace tycho;
using namespace mesh;

namespace {

// [0,100]^3 (the domain of sine_cube_solution(100)) as 3^3 Kuhn cubes, the interior nodes
// jittered: cells of many shapes, as on an unstructured mesh, not one shape repeated.
Mesh cube() { return meshtest::jittered_cube(3, 100.0); }

// Schoenhardt's twisted prism (mesh/mesh_examples.hpp): the six side cells form a ring that a
// direction along z runs round.
Mesh twisted_prism() { return twisted_prism_mesh(30, true); }

// One direction, straight up, weight 4 pi.
Quadrature upward() {
  Quadrature q;
  q.name = "up";
  q.omega = {{0, 0, 1}};
  q.weight = {4 * std::numbers::pi};
  q.octant = {0};
  return q;
}

// The observed orders of the psi and phi errors between the last two of levels 0-2.
struct Orders {
  double psi, phi;
};
Orders last_orders(Scheme scheme, SourceModel source) {
  Mesh mesh = cube();
  const Quadrature s8 = level_symmetric(8, "test");
  const ManufacturedSolution m = sine_cube_solution(100);
  MmsErrors prev{};
  Orders o{};
  for (int level = 0; level <= 2; ++level) {
    if (level > 0) mesh = refine_uniform(mesh, "jittered cube refined");
    const MmsErrors e = manufactured_errors(mesh, s8, m, 0.05, scheme, source);
    if (level > 0) o = {std::log2(prev.psi_l2 / e.psi_l2), std::log2(prev.phi_l2 / e.phi_l2)};
    prev = e;
  }
  return o;
}

}  // namespace

TEST_CASE("LD reproduces a linear psi to round-off, with its inflow through the boundary", "[mms]") {
  const Mesh mesh = cube();
  const Quadrature s8 = level_symmetric(8, "test");
  const ManufacturedSolution linear = linear_solution(2, {0.01, -0.02, 0.03});
  for (const SourceModel source : {SourceModel::projected, SourceModel::nodal}) {
    const MmsErrors e = manufactured_errors(mesh, s8, linear, 0.05, Scheme::linear_discontinuous, source);
    CHECK(e.psi_norm > 100);  // 2..5 over a volume of 10^6 in 4 pi of angle
    CHECK(e.psi_l2 / e.psi_norm < 1e-13);
    CHECK(e.phi_l2 / e.phi_norm < 1e-13);
    CHECK(e.lagged == 0);
    CHECK(e.passes == 1);
  }
  // The step scheme cannot: its error is the linear part's, about h |b| / sqrt(12) per cell.
  const MmsErrors step = manufactured_errors(mesh, s8, linear, 0.05, Scheme::step, SourceModel::projected);
  CHECK(step.psi_l2 / step.psi_norm > 1e-2);
}

TEST_CASE("the step scheme reproduces a constant psi to round-off", "[mms]") {
  const Mesh mesh = cube();
  const MmsErrors e = manufactured_errors(mesh, level_symmetric(8, "test"), linear_solution(3, {0, 0, 0}), 0.05,
                                          Scheme::step, SourceModel::projected);
  CHECK(e.psi_l2 / e.psi_norm < 1e-13);
}

TEST_CASE("a cycle: the lagged faces iterated, a linear psi still reproduced by LD", "[mms]") {
  const Mesh mesh = twisted_prism();
  const MmsErrors e = manufactured_errors(mesh, upward(), linear_solution(1, {0.3, -0.2, 0.5}), 0.7,
                                          Scheme::linear_discontinuous, SourceModel::projected);
  CHECK(e.lagged >= 1);
  CHECK(e.passes > 1);
  CHECK(e.psi_l2 / e.psi_norm < 1e-12);
}

TEST_CASE("the sine solution: LD second order, step first order, on the cube refined twice", "[mms]") {
  // Measured: LD 1.882 (psi) 2.006 (phi), nodal source 1.985, step 0.935 0.972 (on
  // Tycho2's cube-208 refined twice, with about the same cell counts: 1.887 1.985, 1.978,
  // 0.949 0.981).
  const Orders ld = last_orders(Scheme::linear_discontinuous, SourceModel::projected);
  CHECK(ld.psi >= 1.8);
  CHECK(ld.phi >= 1.8);
  const Orders nodal = last_orders(Scheme::linear_discontinuous, SourceModel::nodal);
  CHECK(nodal.psi >= 1.8);
  const Orders step = last_orders(Scheme::step, SourceModel::projected);
  CHECK(step.psi >= 0.85);
  CHECK(step.psi <= 1.15);  // first order, not better
  CHECK(step.phi >= 0.85);
}
