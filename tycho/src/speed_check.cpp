// tycho's speed check (speed_check.hpp).
#include "tycho/speed_check.hpp"

#include <chrono>
#include <vector>

#include "instrument/statistics.hpp"
#include "mesh/mesh_examples.hpp"
#include "tycho/cell_solve.hpp"
#include "tycho/ld_tet.hpp"
#include "tycho/quadrature.hpp"

namespace tycho {

namespace {

constexpr int kCubes = 3, kPasses = 5, kGroups = 2;

struct CheckProblem {
  std::vector<LdTet> tets = ld_tets(mesh::kuhn_cube_mesh(kCubes, 1.0));
  Quadrature s8 = level_symmetric(8, "S8");
};

}  // namespace

double speed_check_ns() {
  static const CheckProblem problem;  // built once: the second check times the solves alone
  const double sigma_t[kGroups] = {0.5, 0.75};
  double q[kGroups * 4], in[4 * kGroups * 3], out[kGroups * 4];
  for (int k = 0; k < kGroups * 4; ++k) q[k] = 1.0 + 0.25 * k;
  for (int k = 0; k < 4 * kGroups * 3; ++k) in[k] = 0.5 + 0.125 * (k % 5);
  // Every solve's values go to a volatile sum, so no solve can be dropped or hoisted.
  volatile double sink = 0;
  std::vector<double> ns;
  for (int pass = 0; pass < kPasses; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const mesh::Vec3& omega : problem.s8.omega)
      for (const LdTet& tet : problem.tets) {
        solve_cell_ld_groups(tet, omega, kGroups, sigma_t, q, in, out);
        double sum = 0;
        for (double v : out) sum += v;
        sink = sink + sum;
      }
    const double pass_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    ns.push_back(pass_ns / static_cast<double>(problem.tets.size() * problem.s8.size() * kGroups));
  }
  return instrument::median(ns);
}

}  // namespace tycho
