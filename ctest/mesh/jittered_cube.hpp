// A test mesh that nests in nothing: Kuhn's cube of n^3 cubes with every interior node moved
// by up to a tenth of a small cube's side along each axis (a fixed pseudo-random pattern, the
// same on every process), so that no node of it lies at a node, edge midpoint or face of a
// coarser cube's cells. Also the irregular mesh of tests that once read Tycho2's cubes: of
// side 100 (theirs, which the default cross sections are set for) its sweep DAGs and METIS
// parts are unstructured like theirs.
#pragma once
#include <cmath>
#include <string>

#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_geometry.hpp"

namespace meshtest {

inline mesh::Mesh jittered_cube(int n, double side = 1.0) {
  mesh::Mesh m = mesh::kuhn_cube_mesh(n, side);
  const double h = side / n;
  const auto wobble = [h](double seed) { return 0.1 * h * std::sin(12.9898 * seed + 78.233); };
  for (std::size_t k = 0; k < m.nodes.size(); ++k) {
    mesh::Vec3& p = m.nodes[k];
    const bool interior = p.x > 0 && p.x < side && p.y > 0 && p.y < side && p.z > 0 && p.z < side;
    if (!interior) continue;
    const double s = static_cast<double>(k);
    p = {p.x + wobble(s), p.y + wobble(s + 0.31), p.z + wobble(s + 0.67)};
  }
  const std::string name = "jittered cube " + std::to_string(n);
  mesh::check_mesh(m, name);
  mesh::compute_geometry(m);
  return m;
}

}  // namespace meshtest
