// The cell loop on T threads (cell_loop_split.hpp): the same bits as one thread, for every
// build, on families alone, on loose cells alone and on a process's share that has both,
// from a y that is not 0; the ranges cover the batches in order, balanced by cells; the team
// that ran is T; the node passes on T threads give one thread's bits.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "mesh/mesh_examples.hpp"
#include "mesh/partition.hpp"
#include "multigrid/cell_loop_split.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/node_update.hpp"
#include "multigrid/p1_operator.hpp"

using mg::CellKernel;

namespace {

std::vector<CellKernel> kernels_here() {
  std::vector<CellKernel> k{CellKernel::portable};
  for (CellKernel v : {CellKernel::avx2, CellKernel::avx512})
    if (mg::cell_kernel_runs_here(v)) k.push_back(v);
  return k;
}

// Process `me`'s share of the finest of `grids` grids on the n^3 cube cut into `parts` by METIS.
mg::LocalLevel share(int n, int grids, int parts, int me) {
  const std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(n, 1.0), grids, "test");
  const auto p = mg::inherit_parts(g, mesh::metis_partition(g.back().mesh, parts, "test"));
  std::vector<mg::LocalLevel> levels = mg::build_local_levels(g, p, me, parts);
  return std::move(levels.back());
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// apply_cells on T = 2, 3, 5 and 8 threads (ranges down to 8 cells) against one, every build.
void check_threads_keep_bits(const mg::LocalLevel& L) {
  const std::size_t n = L.slots();
  std::vector<double> u(n), y0(n);
  for (std::size_t s = 0; s < n; ++s) {
    u[s] = std::sin(0.5 + 1.3 * static_cast<double>(s));
    y0[s] = 0.1 * std::cos(0.2 + 0.7 * static_cast<double>(s));  // y += K u: not from 0
  }
  for (CellKernel k : kernels_here()) {
    CAPTURE(mg::cell_kernel_name(k));
    std::vector<double> serial = y0;
    mg::apply_cells(L, u.data(), serial.data(), k);
    REQUIRE(!same_bits(serial, y0));
    for (int T : {2, 3, 5, 8}) {
      CAPTURE(T);
      mg::CellLoopSplit split = mg::split_cell_loop(L, T, 8);
      REQUIRE(split.threads() == static_cast<std::size_t>(T));
      CHECK(split.kept_sums() > 0);  // the ranges share nodes: the deferred sums are exercised
      for (int again = 0; again < 2; ++again) {  // the kept buffers are reused sweep after sweep
        std::vector<double> y = y0;
        CHECK(mg::apply_cells(L, split, u.data(), y.data(), k) == T);  // T threads ran
        CHECK(same_bits(y, serial));
      }
    }
  }
}

}  // namespace

TEST_CASE("the cell loop on T threads gives one thread's bits: families, loose cells, and both") {
  SECTION("a refined grid held whole: families only") {
    const mg::LocalLevel L = share(2, 3, 1, 0);
    REQUIRE(L.loose_cells.empty());
    check_threads_keep_bits(L);
  }
  SECTION("the same cells one by one: loose cells only") {
    mg::LocalLevel L = share(2, 3, 1, 0);
    mg::dissolve_families(L, 0);
    mg::batch_cells(L);
    check_threads_keep_bits(L);
  }
  SECTION("a process's share of 3: families, then the loose cells METIS cut from theirs") {
    for (int me = 0; me < 3; ++me) {
      CAPTURE(me);
      const mg::LocalLevel L = share(2, 3, 3, me);
      REQUIRE(L.family_count() > 0);
      REQUIRE(!L.loose_cells.empty());
      check_threads_keep_bits(L);
    }
  }
}

TEST_CASE("the split: contiguous ranges in the serial order, balanced by cells; fewer threads on small grids") {
  const mg::LocalLevel L = share(2, 3, 3, 1);  // families and loose cells
  const std::size_t qf = L.family_batches.batches.size(), ql = L.loose_batches.batches.size();
  const mg::CellLoopSplit split = mg::split_cell_loop(L, 4, 8);
  REQUIRE(split.threads() == 4);
  // Range by range, the families' batches then the loose cells', each from where the last ended.
  std::size_t f = 0, l = 0, biggest = 0, smallest = L.cell_count();
  for (const mg::CellLoopSplit::Range& r : split.ranges) {
    CHECK(r.families.begin == f);
    CHECK(r.loose.begin == l);
    CHECK((r.loose.end == r.loose.begin || r.families.end == qf));  // loose cells come after every family
    f = r.families.end;
    l = r.loose.end;
    std::size_t cells = 0;
    for (std::size_t b = r.families.begin; b < r.families.end; ++b) cells += 8 * L.family_batches.lanes(b);
    for (std::size_t b = r.loose.begin; b < r.loose.end; ++b) cells += L.loose_batches.lanes(b);
    biggest = std::max(biggest, cells);
    smallest = std::min(smallest, cells);
    CHECK(r.kept.size() == r.kept_nodes.size());
  }
  CHECK(f == qf);
  CHECK(l == ql);
  CHECK(biggest - smallest < 128);  // a range ends within a batch of families (64 cells) of its share
  CHECK(split.ranges[0].kept_nodes.empty());  // no range below the first
  // The default least cells a thread: fewer than twice that many cells take one thread.
  REQUIRE(L.cell_count() < 2 * mg::kMinCellsPerThread);
  CHECK(mg::split_cell_loop(L, 4).threads() == 1);
  CHECK(mg::split_cell_loop(L, 1, 8).threads() == 1);
  // A split of other batches is refused.
  mg::LocalLevel other = L;
  mg::dissolve_families(other, 0);
  mg::batch_cells(other);
  mg::CellLoopSplit stale = mg::split_cell_loop(L, 2, 8);
  std::vector<double> u(other.slots(), 1.0), y(other.slots(), 0.0);
  CHECK_THROWS_WITH(mg::apply_cells(other, stale, u.data(), y.data()), Catch::Contains("split_cell_loop"));
}

TEST_CASE("the node passes on T threads give one thread's bits") {
  // A level's node vectors alone (the passes read no cells): 40000 nodes, chunks of 10000.
  mg::LocalLevel L;
  const std::size_t n = 40000;
  L.n_local = n;
  for (std::vector<double>* v : {&L.x, &L.b, &L.r, &L.y, &L.diag_inv, &L.d}) v->resize(n);
  L.dirichlet.resize(n);
  for (std::size_t s = 0; s < n; ++s) {
    const double t = static_cast<double>(s);
    L.x[s] = std::sin(0.1 * t);
    L.b[s] = std::cos(0.3 * t);
    L.r[s] = std::sin(0.7 * t + 1);
    L.d[s] = std::cos(1.1 * t + 2);
    L.diag_inv[s] = 1.0 + 0.5 * std::sin(1.3 * t);
    L.dirichlet[s] = s % 17 == 0;
  }
  const auto run = [&](int threads) {
    mg::LocalLevel M = L;
    std::vector<std::vector<double>> out;
    for (std::size_t s = 0; s < n; ++s) M.y[s] = std::sin(2.1 * static_cast<double>(s));
    mg::jacobi_update(M, 0.7, threads, 10000);
    for (std::size_t s = 0; s < n; ++s) M.y[s] = std::cos(0.9 * static_cast<double>(s));
    mg::chebyshev_first_update(M, 1.3, threads, 10000);
    for (std::size_t s = 0; s < n; ++s) M.y[s] = std::sin(0.4 * static_cast<double>(s));
    mg::chebyshev_update(M, 0.3, 0.6, threads, 10000);
    return std::vector<std::vector<double>>{M.x, M.y, M.r, M.d};
  };
  const auto one = run(1);
  for (int T : {2, 3, 4, 7}) {
    CAPTURE(T);
    const auto many = run(T);
    for (std::size_t v = 0; v < one.size(); ++v) CHECK(same_bits(many[v], one[v]));
  }
}
