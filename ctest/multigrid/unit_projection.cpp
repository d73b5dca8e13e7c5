// The projection (projection.hpp): the cycle's supersteps as cycle.cpp runs them; the bytes
// counted for each exchange at P = 3 equal what the run's own exchange plans send; and the
// simulated cycle at P = 1 is C1 x the cells of every application, at P = 3 no less than its
// slowest process's compute.
#include <catch2/catch.hpp>

#include <cmath>

#include "mesh/mesh_examples.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/model/projection.hpp"

namespace {

instrument::replay::Machine machine() {
  instrument::replay::Machine m;
  m.net.L = 2e-6;
  m.net.o_prime = 1e-6;
  m.net.G_s = m.net.G_l = 1e-9;
  m.net.s = 1 << 20;
  m.net.S = 1 << 20;
  m.g = 1e-6;
  return m;
}

}  // namespace

TEST_CASE("a cycle's supersteps: W and V, by grid and kind") {
  mg::CycleOptions o;  // 2 + 2, 30 on the coarsest, W
  const auto w = mg::cycle_steps(3, o);
  CHECK(w.size() == 141);  // 7 on the finest, 2 x 7 on the next, 4 x 30 on the coarsest
  int applies[3] = {0, 0, 0}, transfers = 0;
  for (const mg::CycleStep& s : w) {
    if (s.kind == mg::CycleStep::apply) ++applies[s.level];
    else ++transfers;
  }
  CHECK(applies[2] == 5);
  CHECK(applies[1] == 10);
  CHECK(applies[0] == 120);
  CHECK(transfers == 6);
  CHECK(w.front().level == 2);
  CHECK(w[3].kind == mg::CycleStep::restrict);  // after 2 smoothing iterations and the residual
  CHECK(w[3].level == 1);
  CHECK(w[2].kind == mg::CycleStep::apply);
  o.gamma = 1;
  CHECK(mg::cycle_steps(3, o).size() == 44);
  CHECK(mg::cycle_steps(1, o).size() == 30);
}

TEST_CASE("the bytes counted for P = 3 are those the run's exchange plans send") {
  const std::vector<mg::Grid> grids = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 2, "cube");
  const int P = 3;
  const auto parts = mg::inherit_parts(grids, mesh::metis_partition(grids.back().mesh, P, "cube"));
  const mg::Traffic t = mg::count_traffic(grids, parts, P);
  int messages = 0;
  for (int me = 0; me < P; ++me) {
    const std::vector<mg::LocalLevel> levels = mg::build_local_levels(grids, parts, me, P);
    for (std::size_t l = 0; l < grids.size(); ++l) {
      const auto same = [&](const mg::SumExchange& x, const std::vector<mg::Traffic::Message>& counted) {
        REQUIRE(x.sends.size() == counted.size());
        for (std::size_t k = 0; k < counted.size(); ++k) {
          CHECK(x.sends[k].peer == counted[k].peer);
          CHECK(static_cast<std::int64_t>(8 * x.sends[k].slots.size()) == counted[k].bytes);
          ++messages;
        }
      };
      INFO("process " << me << ", level " << l);
      same(levels[l].assemble, t.assemble[l][static_cast<std::size_t>(me)]);
      same(levels[l].restrict_sum, t.restrict_sum[l][static_cast<std::size_t>(me)]);
      same(levels[l].prolong_fetch, t.prolong_fetch[l][static_cast<std::size_t>(me)]);
      CHECK(t.cells[l][static_cast<std::size_t>(me)] == static_cast<std::int64_t>(levels[l].cell_count()));
    }
  }
  CHECK(messages > 10);
  for (std::size_t l = 0; l < grids.size(); ++l) CHECK(t.h_bytes[l] > 0);
}

TEST_CASE("the simulated cycle: C1 x cells at P = 1; at P = 3 at least the slowest compute") {
  const std::vector<mg::Grid> grids = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 3, "cube");
  const mg::CycleOptions o;
  const auto steps = mg::cycle_steps(3, o);
  const double c1 = 1e-7;
  const auto flat = [c1](double) { return c1; };
  {
    const auto parts = mg::inherit_parts(grids, mesh::Partition{1, std::vector<std::int32_t>(grids.back().mesh.cells.size(), 0)});
    const mg::Traffic t = mg::count_traffic(grids, parts, 1);
    const auto r = instrument::replay::simulate(*mg::cycle_program(t, steps, flat), machine());
    // 5 x 3072 + 10 x 384 + 120 x 48 cells
    const double want = c1 * (5 * 3072 + 10 * 384 + 120 * 48);
    CHECK(std::fabs(r.total - want) <= 1e-12 + 1e-9 * want);
    // C1 taken at each grid's cells per process: twice as dear on the finest grid only.
    const auto dearer = [c1](double cells) { return cells >= 3072 ? 2 * c1 : c1; };
    const auto d = instrument::replay::simulate(*mg::cycle_program(t, steps, dearer), machine());
    const double want_d = c1 * (2 * 5 * 3072 + 10 * 384 + 120 * 48);
    CHECK(std::fabs(d.total - want_d) <= 1e-12 + 1e-9 * want_d);
  }
  const int P = 3;
  const auto parts = mg::inherit_parts(grids, mesh::metis_partition(grids.back().mesh, P, "cube"));
  const mg::Traffic t = mg::count_traffic(grids, parts, P);
  const auto r = instrument::replay::simulate(*mg::cycle_program(t, steps, flat), machine());
  double slowest = 0;
  for (const mg::CycleStep& s : steps)
    if (s.kind == mg::CycleStep::apply) {
      const auto& cells = t.cells[static_cast<std::size_t>(s.level)];
      slowest += c1 * static_cast<double>(*std::max_element(cells.begin(), cells.end()));
    }
  CHECK(r.total >= slowest);
  CHECK(r.total < slowest + 141 * 1e-4);  // plus at most 100 us of messages and barrier a superstep
}
