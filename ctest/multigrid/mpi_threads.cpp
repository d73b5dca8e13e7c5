// --threads T (CycleOptions::threads): the whole solve with T OpenMP threads in each
// process's cell loops and node passes gives the bits of one thread at 1, 2 and 4 processes:
// the residual history, the L2 error, every grid's lambda_max and the solution at every node
// a process holds; and T threads ran. The least cells and nodes a thread takes are lowered
// so that every grid of these small problems is split (the defaults leave them one thread).
#include <catch2/catch.hpp>
#include <mpi.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bsp.h"
#include "../mesh/jittered_cube.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/partition.hpp"
#include "multigrid/driver.hpp"
#include "multigrid/grid_partition.hpp"

namespace {

mg::RunOptions options(int threads, mg::Smoother smoother, int gamma) {
  mg::RunOptions o;
  o.cube = 3;
  o.grids = 3;
  o.cycles = 6;
  o.cycle.smoother = smoother;
  o.cycle.gamma = gamma;
  o.cycle.threads = threads;
  o.cycle.min_cells_per_thread = 16;
  o.cycle.min_nodes_per_thread = 16;
  o.keep_solution = true;
  return o;
}

mg::RunResult nested(int threads, mg::Smoother smoother = mg::Smoother::chebyshev, int gamma = 2) {
  const mg::RunOptions o = options(threads, smoother, gamma);
  return mg::solve_in_section(mg::load_problem(o), o, nullptr);
}

// The 3^3 cube, then the jittered 6^3 and 12^3 cubes: meshes that do not nest.
mg::RunResult sequence(int threads) {
  std::vector<mesh::Mesh> meshes{mesh::kuhn_cube_mesh(3, 1.0), meshtest::jittered_cube(6), meshtest::jittered_cube(12)};
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  mg::ProblemInput in;
  in.mesh_name = "sequence";
  in.grids = mg::build_sequence(meshes, {"cube 3", "jittered 6", "jittered 12"});
  in.parts = mg::inherit_parts(in.grids, mesh::metis_partition(in.grids.back().mesh, p, in.mesh_name));
  return mg::solve_in_section(in, options(threads, mg::Smoother::chebyshev, 2), nullptr);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every figure of `many` has the bits of `one`'s.
void check_same(const mg::RunResult& one, const mg::RunResult& many) {
  REQUIRE(many.residuals.size() == one.residuals.size());
  for (std::size_t k = 0; k < one.residuals.size(); ++k) {
    INFO("cycle " << k);
    CHECK(same_bits(many.residuals[k], one.residuals[k]));
  }
  CHECK(same_bits(many.l2_error, one.l2_error));
  REQUIRE(many.grids.size() == one.grids.size());
  for (std::size_t g = 0; g < one.grids.size(); ++g) {
    INFO("grid " << g + 1);
    CHECK(same_bits(many.grids[g].lambda_max, one.grids[g].lambda_max));
  }
  REQUIRE(many.solution.size() == one.solution.size());
  std::size_t differing = 0;
  for (std::size_t s = 0; s < one.solution.size(); ++s)
    differing += many.solution[s].first != one.solution[s].first || !same_bits(many.solution[s].second, one.solution[s].second);
  CHECK(differing == 0);
}

}  // namespace

TEST_CASE("T threads a process give one thread's bits: nested grids (Chebyshev W, Jacobi V) and a sequence") {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  // At 4 processes (on this suite's 2-core machines) 3 threads each would be 12 on 2 cores:
  // T = 2 alone there.
  const int most = p >= 4 ? 2 : 3;
  bsp_begin(p);
  std::vector<std::pair<int, mg::RunResult>> w, v, q;
  for (int T = 1; T <= most; ++T) w.emplace_back(T, nested(T));
  for (int T : {1, 2}) v.emplace_back(T, nested(T, mg::Smoother::jacobi, 1));
  for (int T : {1, most}) q.emplace_back(T, sequence(T));
  bsp_end();
  for (const auto* runs : {&w, &v, &q}) {
    const mg::RunResult& one = runs->front().second;
    CHECK(one.threads == 1);
    REQUIRE(one.residuals.back() < 1e-2 * one.residuals.front());  // a solve, not a no-op
    for (std::size_t k = 1; k < runs->size(); ++k) {
      const auto& [T, many] = (*runs)[k];
      CAPTURE(T);
      CHECK(many.threads == T);  // T threads ran a cell loop
      check_same(one, many);
    }
  }
}
