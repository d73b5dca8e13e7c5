// The smoother's cell loop (p1_operator.hpp): the P1 element matrix against one worked by
// hand, the energy of a linear function, the diagonal, families of 8 children against the
// cells one by one (on a distorted mesh, whose parents take all three diagonals), and the
// two builds bit for bit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "mesh/mesh_examples.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/p1_operator.hpp"
#include "mesh/partition.hpp"

using Catch::Matchers::WithinAbs;
using mg::CellKernel;

namespace {

std::vector<CellKernel> kernels_here() {
  std::vector<CellKernel> k{CellKernel::portable};
  for (CellKernel v : {CellKernel::avx2, CellKernel::avx512})
    if (mg::cell_kernel_runs_here(v)) k.push_back(v);
  return k;
}

// The finest of `grids` grids on the cube cut into n^3 cubes, held whole by one process;
// `distort` moves the interior nodes of the coarsest by up to that fraction of a cube.
mg::LocalLevel cube_level(int n, int grids, double distort = 0) {
  mesh::Mesh coarse = mesh::kuhn_cube_mesh(n, 1.0);
  const double h = 1.0 / n;
  for (std::size_t k = 0; k < coarse.nodes.size(); ++k) {
    mesh::Vec3& v = coarse.nodes[k];
    const auto inside = [](double c) { return c > 1e-9 && c < 1 - 1e-9; };
    if (!inside(v.x) || !inside(v.y) || !inside(v.z)) continue;
    const double t = static_cast<double>(k);
    v = {v.x + distort * h * std::sin(1.7 * t), v.y + distort * h * std::sin(2.3 * t + 1), v.z + distort * h * std::sin(3.1 * t + 2)};
  }
  const std::vector<mg::Grid> g = mg::build_hierarchy(coarse, grids, "test");
  const mesh::Partition one{1, std::vector<std::int32_t>(g.back().mesh.cells.size(), 0)};
  std::vector<mg::LocalLevel> levels = mg::build_local_levels(g, mg::inherit_parts(g, one), 0, 1);
  return std::move(levels.back());
}

}  // namespace

TEST_CASE("the reference tetrahedron's element matrix, worked by hand") {
  // Corners 0, e_x, e_y, e_z: K = (1/6) [[3,-1,-1,-1],[-1,1,0,0],[-1,0,1,0],[-1,0,0,1]], so
  // K (1,2,3,4) = (1/6) (-6, 1, 2, 3). The corners listed in another order (an inverted
  // orientation) give the same matrix, permuted.
  mg::LocalLevel L;
  L.xyz = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
  const double u[4] = {1, 2, 3, 4};
  for (CellKernel k : kernels_here()) {
    CAPTURE(mg::cell_kernel_name(k));
    L.loose_cells = {{0, 1, 2, 3}};
    mg::batch_cells(L);
    double y[4] = {0, 0, 0, 0};
    mg::apply_cells(L, u, y, k);
    const double expected[4] = {-1.0, 1.0 / 6, 2.0 / 6, 3.0 / 6};
    for (int i = 0; i < 4; ++i) CHECK_THAT(y[i], WithinAbs(expected[i], 1e-15));
    L.loose_cells = {{2, 0, 3, 1}};
    mg::batch_cells(L);
    double z[4] = {0, 0, 0, 0};
    mg::apply_cells(L, u, z, k);
    for (int i = 0; i < 4; ++i) CHECK_THAT(z[i], WithinAbs(expected[i], 1e-15));
  }
  double d[4] = {0, 0, 0, 0};
  L.loose_cells = {{0, 1, 2, 3}};
  mg::add_cell_diagonal(L, d);
  const double diagonal[4] = {0.5, 1.0 / 6, 1.0 / 6, 1.0 / 6};
  for (int i = 0; i < 4; ++i) CHECK_THAT(d[i], WithinAbs(diagonal[i], 1e-15));
}

TEST_CASE("on the cube: constants have no energy, a linear function |a|^2 (its exact energy)") {
  mg::LocalLevel L = cube_level(3, 2);
  const std::size_t n = L.n_local;
  const double a[3] = {0.3, -1.1, 2.0};
  std::vector<double> one(n, 1.0), lin(n);
  for (std::size_t s = 0; s < n; ++s) lin[s] = a[0] * L.xyz[s].x + a[1] * L.xyz[s].y + a[2] * L.xyz[s].z + 0.7;
  for (CellKernel k : kernels_here()) {
    CAPTURE(mg::cell_kernel_name(k));
    std::vector<double> y(n, 0.0);
    mg::apply_cells(L, one.data(), y.data(), k);
    for (double v : y) REQUIRE_THAT(v, WithinAbs(0.0, 1e-13));
    std::fill(y.begin(), y.end(), 0.0);
    mg::apply_cells(L, lin.data(), y.data(), k);
    double energy = 0;
    for (std::size_t s = 0; s < n; ++s) energy += lin[s] * y[s];
    CHECK_THAT(energy, WithinAbs(a[0] * a[0] + a[1] * a[1] + a[2] * a[2], 1e-12));
  }
}

TEST_CASE("the diagonal is e_i . K e_i") {
  mg::LocalLevel L = cube_level(2, 2);
  const std::size_t n = L.n_local;
  std::vector<double> d(n, 0.0);
  mg::add_cell_diagonal(L, d.data());
  for (std::size_t i = 0; i < n; i += 7) {
    std::vector<double> e(n, 0.0), y(n, 0.0);
    e[i] = 1.0;
    mg::apply_cells(L, e.data(), y.data());
    CHECK_THAT(y[i], WithinAbs(d[i], 1e-14));
  }
}

TEST_CASE("families: every cell of a refined grid is in one, and they apply what the cells do one by one") {
  // Distorted and refined twice, so that the parents of the finest grid take each of the
  // three diagonals (154, 199 and 79 of its 432 families, counted once by hand).
  const mg::LocalLevel L = cube_level(2, 3, 0.2);
  CHECK(L.loose_cells.empty());
  mg::LocalLevel by_cell = L;
  mg::dissolve_families(by_cell, 0);
  mg::batch_cells(by_cell);
  const std::size_t n = L.n_local;
  std::vector<double> u(n);
  for (std::size_t s = 0; s < n; ++s) u[s] = std::cos(0.3 + 0.91 * static_cast<double>(s));
  for (CellKernel k : kernels_here()) {
    CAPTURE(mg::cell_kernel_name(k));
    std::vector<double> y(n, 0.0), z(n, 0.0);
    mg::apply_cells(L, u.data(), y.data(), k);
    mg::apply_cells(by_cell, u.data(), z.data(), k);
    double biggest = 0;
    for (double v : z) biggest = std::max(biggest, std::fabs(v));
    REQUIRE(biggest > 0.1);
    for (std::size_t s = 0; s < n; ++s) REQUIRE_THAT(y[s], WithinAbs(z[s], 1e-13 * biggest));
  }
  // The coarsest grid has no parents: no families.
  CHECK(cube_level(2, 1).family_count() == 0);
}

TEST_CASE("families split between processes: each process's are the parents it holds whole") {
  const std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 3, "test");
  const auto parts = mg::inherit_parts(g, mesh::metis_partition(g.back().mesh, 3, "test"));
  const std::vector<std::int32_t>& fine = parts.back();
  std::size_t total = 0;
  for (int me = 0; me < 3; ++me) {
    CAPTURE(me);
    std::vector<mg::LocalLevel> levels = mg::build_local_levels(g, parts, me, 3);
    const mg::LocalLevel& L = levels.back();
    std::size_t whole = 0;  // parents all 8 of whose children are mine
    for (std::size_t p = 0; p < fine.size() / 8; ++p) {
      bool all = true;
      for (std::size_t c = 8 * p; c < 8 * p + 8; ++c) all = all && fine[c] == me;
      whole += all;
    }
    CHECK(L.family_count() == whole);
    CHECK(whole < L.cell_count() / 8);  // METIS cuts some families
    total += L.family_count();
    mg::LocalLevel by_cell = L;
    mg::dissolve_families(by_cell, 0);
    mg::batch_cells(by_cell);
    std::vector<double> u(L.slots());
    for (std::size_t s = 0; s < u.size(); ++s) u[s] = std::sin(0.5 + 1.3 * static_cast<double>(L.node_global[s]));
    std::vector<double> y(L.slots(), 0.0), z(L.slots(), 0.0);
    mg::apply_cells(L, u.data(), y.data());
    mg::apply_cells(by_cell, u.data(), z.data());
    for (std::size_t s = 0; s < L.n_local; ++s) REQUIRE_THAT(y[s], WithinAbs(z[s], 1e-12));
  }
  CHECK(total > 0);
}

TEST_CASE("the batches: item 8 b + l in lane l of batch b, slot by slot; a dead lane repeats lane 0's item") {
  std::vector<std::array<std::uint32_t, 4>> items;
  for (std::uint32_t c = 0; c < 19; ++c) items.push_back({4 * c, 4 * c + 1, 4 * c + 2, 4 * c + 3});
  const mg::ItemBatches<4> B = mg::batch_items(items.data(), items.size());
  REQUIRE(B.items == 19);
  REQUIRE(B.batches.size() == 3);
  CHECK(B.lanes(0) == 8);
  CHECK(B.lanes(1) == 8);
  CHECK(B.lanes(2) == 3);
  CHECK(B.batches[1][2][4] == 4 * 12 + 2);  // lane 4 of batch 1: item 12, slot 2
  CHECK(B.batches[2][0][2] == 4 * 18);      // the last item
  CHECK(B.batches[2][3][7] == 4 * 16 + 3);  // dead: batch 2's lane 0, item 16
  CHECK(B.batches[2][1][3] == 4 * 16 + 1);  // dead likewise
  // A level whose cells changed after batching is refused, not swept with stale batches.
  mg::LocalLevel L = cube_level(1, 1);
  std::vector<double> u(L.slots(), 1.0), y(L.slots(), 0.0);
  L.loose_cells.pop_back();
  CHECK_THROWS_WITH(mg::apply_cells(L, u.data(), y.data()), Catch::Contains("batch_cells"));
}

TEST_CASE("the vector builds give the portable build's bits, whatever the cell or family count") {
  const std::vector<CellKernel> builds = kernels_here();
  if (builds.size() == 1) {  // nothing to compare: the portable runs
    CHECK(mg::fastest_cell_kernel() == CellKernel::portable);
    return;
  }
  mg::LocalLevel whole = cube_level(2, 2, 0.2);  // 384 cells, 48 families
  REQUIRE(whole.family_count() == 48);
  const std::size_t n = whole.n_local;
  std::vector<double> u(n);
  for (std::size_t s = 0; s < n; ++s) u[s] = std::sin(1.0 + 0.37 * static_cast<double>(s));
  const auto same_bits = [&](const mg::LocalLevel& L) {
    std::vector<double> y0(n, 0.25);
    mg::apply_cells(L, u.data(), y0.data(), CellKernel::portable);
    for (std::size_t k = 1; k < builds.size(); ++k) {
      CAPTURE(mg::cell_kernel_name(builds[k]));
      std::vector<double> y1(n, 0.25);
      mg::apply_cells(L, u.data(), y1.data(), builds[k]);
      for (std::size_t s = 0; s < n; ++s) REQUIRE(y0[s] == y1[s]);
    }
  };
  // Fewer families leave their cells to the loop one by one: 1-17 exercise short batches.
  for (std::size_t families : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 17, 47, 48}) {
    CAPTURE(families);
    mg::LocalLevel L = whole;
    mg::dissolve_families(L, families);
    mg::batch_cells(L);
    same_bits(L);
  }
  mg::dissolve_families(whole, 0);
  // Cells one by one: 1-17 exercise short batches; 383 and 384 a partial and a full last one.
  for (std::size_t cells : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 17, 383, 384}) {
    CAPTURE(cells);
    mg::LocalLevel L = whole;
    L.loose_cells.resize(cells);
    mg::batch_cells(L);
    same_bits(L);
  }
}
