// lambda_max(D^-1 A) from Lanczos steps (cycle.hpp): on a jittered 3^3 cube (8 free nodes, no
// symmetry to shrink the Krylov space), the coarse grid of a sequence, 8 steps give the largest
// eigenvalue of the dense D^-1 A to round-off at every process count, more steps the same, and
// prepare's 6 steps a lower bound of it, which lambda_max holds raised by 10%. And prepare with
// the finest grid's diagonal summed in the load's pass (FinestDiagonal::summed, as the program
// makes it) gives prepare's own diagonals and lambda_max bit for bit.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <vector>

#include "bsp.h"
#include "bsp_sections.hpp"
#include "../mesh/jittered_cube.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/partition.hpp"
#include "multigrid/cycle.hpp"
#include "multigrid/driver.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/p1_operator.hpp"
#include "multigrid/sum_exchange.hpp"

namespace {

// The largest eigenvalue of a dense symmetric matrix (n x n, row-major) by cyclic Jacobi
// rotations: a reference that shares nothing with the Lanczos code.
double largest_symmetric_eigenvalue(std::vector<double> a, std::size_t n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) off += a[i * n + j] * a[i * n + j];
    if (off < 1e-30) break;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (std::size_t k = 0; k < n; ++k) {  // columns p, q
          const double kp = a[k * n + p], kq = a[k * n + q];
          a[k * n + p] = c * kp - s * kq;
          a[k * n + q] = s * kp + c * kq;
        }
        for (std::size_t k = 0; k < n; ++k) {  // rows p, q
          const double pk = a[p * n + k], qk = a[q * n + k];
          a[p * n + k] = c * pk - s * qk;
          a[q * n + k] = s * pk + c * qk;
        }
      }
  }
  double top = a[0];
  for (std::size_t i = 1; i < n; ++i) top = std::max(top, a[i * n + i]);
  return top;
}

// lambda_max of D^-1 A over the free nodes of grid 0, the whole grid held by one process:
// D^-1/2 A D^-1/2 (the same spectrum, symmetric) assembled column by column.
double dense_lambda_max(const std::vector<mg::Grid>& grids) {
  const mesh::Partition one{1, std::vector<std::int32_t>(grids.back().mesh.cells.size(), 0)};
  std::vector<mg::LocalLevel> levels = mg::build_local_levels(grids, mg::inherit_parts(grids, one), 0, 1);
  const mg::LocalLevel& L = levels.front();
  std::vector<std::size_t> free;
  for (std::size_t s = 0; s < L.n_local; ++s)
    if (!L.dirichlet[s]) free.push_back(s);
  std::vector<double> diag(L.slots(), 0.0);
  mg::add_cell_diagonal(L, diag.data());
  const std::size_t n = free.size();
  std::vector<double> m(n * n), e(L.slots()), y(L.slots());
  for (std::size_t j = 0; j < n; ++j) {
    std::fill(e.begin(), e.end(), 0.0);
    std::fill(y.begin(), y.end(), 0.0);
    e[free[j]] = 1.0;
    mg::apply_cells(L, e.data(), y.data());
    for (std::size_t i = 0; i < n; ++i) m[i * n + j] = y[free[i]] / std::sqrt(diag[free[i]] * diag[free[j]]);
  }
  return largest_symmetric_eigenvalue(m, n);
}

}  // namespace

TEST_CASE("Lanczos steps give lambda_max(D^-1 A) of a coarse grid, exact at 8 steps for 8 free nodes") {
  int p = 1, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  mg::RunOptions o;
  mg::ProblemInput in;
  in.mesh_name = "jittered 3, 6";
  in.grids = mg::build_sequence({meshtest::jittered_cube(3), meshtest::jittered_cube(6)}, {"jittered 3", "jittered 6"});
  in.parts = mg::inherit_parts(in.grids, mesh::metis_partition(in.grids.back().mesh, p, in.mesh_name));
  const double exact = dense_lambda_max(in.grids);

  bsp_begin(p);
  mg::Multigrid m;
  m.options = o.cycle;
  m.levels = mg::build_local_levels(in.grids, in.parts, bsp_pid(), p);
  for (mg::LocalLevel& L : m.levels)
    for (mg::SumExchange* x : {&L.assemble, &L.restrict_sum, &L.prolong_fetch}) mg::register_exchange(*x);
  mg::GlobalSum sums(p);
  bsp_sync();
  mg::prepare(m, sums);
  const double six = m.lambda_max.front() / 1.1;
  const double eight = mg::lanczos_lambda_max(m, 0, sums, 8);
  const double twenty = mg::lanczos_lambda_max(m, 0, sums, 20);  // stops when the space is spent
  bool zeroed = true;
  for (const mg::LocalLevel& L : m.levels)
    for (const std::vector<double>* v : {&L.r, &L.d, &L.y})
      zeroed = zeroed && std::all_of(v->begin(), v->end(), [](double x) { return x == 0.0; });
  bsp_end();

  INFO("p = " << p << std::setprecision(17) << ": exact " << exact << ", 6 steps " << six << ", 8 steps " << eight);
  CHECK(exact > 1.0);  // D^-1 A of a P1 Laplacian: a diagonal of ones, so its largest exceeds 1
  CHECK(exact < 4.0);
  CHECK(std::fabs(eight - exact) <= 1e-10 * exact);
  CHECK(std::fabs(twenty - exact) <= 1e-10 * exact);
  CHECK(six <= exact * (1 + 1e-12));  // a Ritz value: never above
  CHECK(six < exact * (1 - 1e-9));     // short of the space: below (the jitter leaves 8 distinct)
  CHECK(six >= 0.5 * exact);
  CHECK(zeroed);
}

TEST_CASE("prepare after the load summed the finest diagonal: prepare's own diagonals and lambda_max, bit for bit") {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  // 3 grids on the 2^3 cube (3072 finest cells, in families), parted among p.
  const std::vector<mg::Grid> grids = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 3, "cube 2");
  const auto parts = mg::inherit_parts(grids, mesh::metis_partition(grids.back().mesh, p, "cube 2"));
  const mg::ProductFunction f{3 * std::acos(-1.0) * std::acos(-1.0), [](double t) { return std::sin(std::acos(-1.0) * t); }};

  bsplib::allow_next_section();  // a section of its own, whichever test case ran before
  bsp_begin(p);
  mg::Multigrid alone, with_load;  // prepare's diagonals; the load's pass's for the finest
  for (mg::Multigrid* m : {&alone, &with_load}) {
    m->levels = mg::build_local_levels(grids, parts, bsp_pid(), p);
    for (mg::LocalLevel& L : m->levels)
      for (mg::SumExchange* x : {&L.assemble, &L.restrict_sum, &L.prolong_fetch}) mg::register_exchange(*x);
  }
  mg::GlobalSum sums(p);
  bsp_sync();
  mg::prepare(alone, sums);
  mg::LocalLevel& F = with_load.levels.back();
  std::fill(F.diag_inv.begin(), F.diag_inv.end(), 0.0);
  mg::add_cell_load(F, f, F.b.data(), mg::fastest_cell_kernel(), F.diag_inv.data());
  mg::prepare(with_load, sums, mg::FinestDiagonal::summed);
  bool same = alone.levels.size() == with_load.levels.size();
  for (std::size_t l = 0; same && l < alone.levels.size(); ++l) {
    const std::vector<double>&a = alone.levels[l].diag_inv, &b = with_load.levels[l].diag_inv;
    same = a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0 &&
           std::memcmp(&alone.lambda_max[l], &with_load.lambda_max[l], sizeof(double)) == 0;
  }
  const double finest_lambda = with_load.lambda_max.back();
  bsp_end();

  INFO("p = " << p << std::setprecision(17) << ": the finest grid's lambda_max " << finest_lambda);
  CHECK(same);
  CHECK(finest_lambda > 1.1);  // 1.1 x a Ritz value of D^-1 A, whose diagonal is ones
  CHECK(finest_lambda < 4.4);
}
