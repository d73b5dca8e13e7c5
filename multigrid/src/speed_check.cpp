// multigrid's speed check (speed_check.hpp).
#include "multigrid/speed_check.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>
#include <vector>

#include "instrument/statistics.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/partition.hpp"
#include "multigrid/cell_loop_split.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/node_update.hpp"

namespace mg {

namespace {

constexpr int kCubes = 3, kGrids = 3, kSweeps = 32, kPasses = 5;
constexpr double kOmega = 0.8;  // below 2 / lambda_max(D^-1 A) (about 2): x stays bounded

// The finest grid held whole by one process, built as the program builds its grids (so its
// cell and node order, which decide the loop's traffic, are a run's; multigrid_smoother_bench
// builds its grid the same way), with its own diagonal and a smooth start.
struct CheckProblem {
  LocalLevel level;
  CellLoopSplit split;
  std::vector<double> x0;

  CheckProblem() {
    std::vector<Grid> grids = build_hierarchy(mesh::kuhn_cube_mesh(kCubes, 1.0), kGrids, "the speed check's cube");
    const mesh::Partition one_part{1, std::vector<std::int32_t>(grids.back().cell_count(), 0)};
    std::vector<LocalLevel> levels = build_local_levels(grids, inherit_parts(grids, one_part), 0, 1);
    level = std::move(levels.back());
    LocalLevel& L = level;
    std::fill(L.diag_inv.begin(), L.diag_inv.end(), 0.0);
    add_cell_diagonal(L, L.diag_inv.data());
    for (std::size_t s = 0; s < L.n_local; ++s) L.diag_inv[s] = L.dirichlet[s] ? 0.0 : 1.0 / L.diag_inv[s];
    std::fill(L.b.begin(), L.b.end(), 1.0);
    std::fill(L.y.begin(), L.y.end(), 0.0);
    x0.resize(L.x.size());
    for (std::size_t s = 0; s < L.n_local; ++s) {
      const NodePoint& p = L.xyz[s];
      x0[s] = std::sin(std::numbers::pi * p.x) * std::sin(std::numbers::pi * p.y) * std::sin(std::numbers::pi * p.z);
    }
    split = split_cell_loop(L, 1);  // one thread: the figure is a CPU's, whatever --threads
  }
};

}  // namespace

double speed_check_ns(CellKernel kernel) {
  static CheckProblem problem;  // built once: the second check times the sweeps alone
  LocalLevel& L = problem.level;
  // Every check starts from the same x, so each does the same arithmetic (and no value drifts
  // towards subnormals over a long run's checks).
  L.x = problem.x0;
  std::vector<double> ns;
  for (int pass = 0; pass < kPasses; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    // A smoothing iteration without its exchange: y += A x over the cells, then x += omega
    // D^-1 (b - y) at the free nodes and y back to 0. Each sweep reads the last one's x, so
    // none can be dropped or hoisted.
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
      apply_cells(L, problem.split, L.x.data(), L.y.data(), kernel);
      jacobi_update(L, kOmega, 1);
    }
    const double pass_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    ns.push_back(pass_ns / static_cast<double>(L.cell_count() * kSweeps));
  }
  return instrument::median(ns);
}

}  // namespace mg
