// A batch's sums grouped by node (batch_node_sums.hpp): the table lists every live position
// once, node by node, grouped by how many sums a node takes, a node's positions in their
// scatter order; a node taking more than 8 sums gives no tables; and the loop that scatters by
// these tables (one thread's split: the AVX-512 build, where the CPU has it; the others
// scatter slot by slot either way) gives the bits of the slot-by-slot scatter.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "mesh/mesh_examples.hpp"
#include "mesh/partition.hpp"
#include "multigrid/batch_node_sums.hpp"
#include "multigrid/cell_loop_split.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/p1_operator.hpp"
#include "../../multigrid/src/p1_cells.hpp"

using mg::CellKernel;

namespace {

mg::LocalLevel share(int n, int grids, int parts, int me) {
  const std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(n, 1.0), grids, "test");
  const auto p = mg::inherit_parts(g, mesh::metis_partition(g.back().mesh, parts, "test"));
  std::vector<mg::LocalLevel> levels = mg::build_local_levels(g, p, me, parts);
  return std::move(levels.back());
}

// Batch b's table against the batch: every live position once; the nodes in groups of
// 1, 2, ... sums as `nodes` counts them; a node's positions all name it, in increasing order,
// and no other group names it.
template <std::size_t N>
void check_table(const mg::ItemBatches<N>& items, std::size_t b, const mg::BatchNodeSums<N>& t) {
  const std::size_t lanes = items.lanes(b);
  const auto node_at = [&](std::size_t p) { return items.batches[b][p / mg::kBatch][p % mg::kBatch]; };
  std::map<std::uint32_t, std::size_t> sums;  // the batch's nodes and how many sums each takes
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t l = 0; l < lanes; ++l) ++sums[items.batches[b][n][l]];
  std::set<std::size_t> seen;
  std::set<std::uint32_t> nodes_seen;
  std::size_t at = 0;
  for (std::size_t c = 1; c <= mg::kBatch; ++c)
    for (std::size_t i = 0; i < t.nodes[c - 1]; ++i) {
      const std::uint32_t node = node_at(t.order[at]);
      CHECK(sums[node] == c);
      CHECK(nodes_seen.insert(node).second);
      for (std::size_t k = 0; k < c; ++k, ++at) {
        REQUIRE(at < N * mg::kBatch);
        const std::size_t p = t.order[at];
        CHECK(p % mg::kBatch < lanes);  // a live lane
        CHECK(node_at(p) == node);
        if (k > 0) CHECK(p > t.order[at - 1]);  // the scatter's order
        CHECK(seen.insert(p).second);
      }
    }
  CHECK(at == N * lanes);
  CHECK(nodes_seen.size() == sums.size());
}

// Every batch's table.
template <std::size_t N>
void check_tables(const mg::ItemBatches<N>& items, const std::vector<mg::BatchNodeSums<N>>& t) {
  for (std::size_t b = 0; b < t.size(); ++b) check_table(items, b, t[b]);
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// One thread's split (the tables) against apply_cells without a split (slot by slot).
void check_one_thread_keeps_bits(const mg::LocalLevel& L) {
  mg::CellLoopSplit split = mg::split_cell_loop(L, 1);
  REQUIRE(split.threads() == 1);
  const mg::CellLoopSplit::Range& r = split.ranges.front();
  REQUIRE(r.families.by_node.size() == L.family_batches.batches.size());
  REQUIRE(r.loose.by_node.size() == L.loose_batches.batches.size());
  check_tables(L.family_batches, r.families.by_node);
  check_tables(L.loose_batches, r.loose.by_node);
  const std::size_t n = L.slots();
  std::vector<double> u(n), y0(n);
  for (std::size_t s = 0; s < n; ++s) {
    u[s] = std::sin(0.5 + 1.3 * static_cast<double>(s));
    y0[s] = 0.1 * std::cos(0.2 + 0.7 * static_cast<double>(s));
  }
  for (CellKernel k : {CellKernel::portable, CellKernel::avx2, CellKernel::avx512}) {
    if (!mg::cell_kernel_runs_here(k)) continue;
    CAPTURE(mg::cell_kernel_name(k));
    std::vector<double> slot_by_slot = y0, by_node = y0;
    mg::apply_cells(L, u.data(), slot_by_slot.data(), k);
    REQUIRE(!same_bits(slot_by_slot, y0));
    mg::apply_cells(L, split, u.data(), by_node.data(), k);
    CHECK(same_bits(by_node, slot_by_slot));
  }
}

// scatter_by_node against scatter_batch batch by batch, on any CPU (the kernels above reach it
// only in the AVX-512 build): the same sums into the same y give the same bits.
template <std::size_t N>
void check_scatter_by_node(const mg::ItemBatches<N>& items, const std::vector<mg::BatchNodeSums<N>>& tables,
                           std::size_t slots) {
  REQUIRE(tables.size() == items.batches.size());
  std::vector<double> by_slot(slots), by_node(slots);
  for (std::size_t s = 0; s < slots; ++s) by_slot[s] = by_node[s] = 0.3 * std::cos(0.1 + 0.9 * static_cast<double>(s));
  const std::vector<double> before = by_slot;
  for (std::size_t b = 0; b < items.batches.size(); ++b) {
    double out[N][mg::kBatch] = {};
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t l = 0; l < mg::kBatch; ++l) out[n][l] = std::sin(1.0 + 0.37 * static_cast<double>(b * 97 + n * 8 + l));
    mg::detail::scatter_batch<N>(items.batches[b], items.lanes(b), out, by_slot.data());
    mg::detail::scatter_by_node<N>(tables[b], items.batches[b], out, by_node.data());
  }
  REQUIRE(!same_bits(by_slot, before));
  CHECK(same_bits(by_node, by_slot));
}

}  // namespace

TEST_CASE("scatter_by_node gives scatter_batch's bits, batch by batch, in every build") {
  SECTION("families") {
    const mg::LocalLevel L = share(2, 3, 1, 0);
    REQUIRE(!L.family_batches.batches.empty());
    const mg::CellLoopSplit split = mg::split_cell_loop(L, 1);
    check_scatter_by_node(L.family_batches, split.ranges.front().families.by_node, L.slots());
  }
  SECTION("loose cells, a short last batch") {
    mg::LocalLevel L = share(2, 3, 1, 0);
    mg::dissolve_families(L, 0);
    L.loose_cells.pop_back();
    mg::batch_cells(L);
    REQUIRE(!L.loose_batches.batches.empty());
    const mg::CellLoopSplit split = mg::split_cell_loop(L, 1);
    check_scatter_by_node(L.loose_batches, split.ranges.front().loose.by_node, L.slots());
  }
}

TEST_CASE("batch tables: every position once, node by node, in the scatter's order; the same bits") {
  SECTION("a refined grid held whole: families only") {
    const mg::LocalLevel L = share(2, 3, 1, 0);
    REQUIRE(L.loose_cells.empty());
    check_one_thread_keeps_bits(L);
  }
  SECTION("the same cells one by one, a short last batch: loose cells only") {
    mg::LocalLevel L = share(2, 3, 1, 0);
    mg::dissolve_families(L, 0);
    L.loose_cells.pop_back();  // 8 k - 1 cells: the last batch has a dead lane
    mg::batch_cells(L);
    REQUIRE(L.loose_batches.lanes(L.loose_batches.batches.size() - 1) == 7);
    check_one_thread_keeps_bits(L);
  }
  SECTION("a process's share of 3: families and loose cells") {
    for (int me = 0; me < 3; ++me) {
      CAPTURE(me);
      const mg::LocalLevel L = share(2, 3, 3, me);
      REQUIRE(!L.loose_cells.empty());
      check_one_thread_keeps_bits(L);
    }
  }
}

TEST_CASE("batch tables: none where a node takes more than 8 sums in a batch") {
  // Eight cells that name node 0 at every corner: 32 sums to one node.
  const std::vector<std::array<std::uint32_t, 4>> cells(8, {0, 0, 0, 0});
  const mg::ItemBatches<4> bad = mg::batch_items(cells.data(), cells.size());
  CHECK(mg::group_batch_sums(bad, 0, 1, 1).empty());
  // One such cell among distinct ones: 4 sums, within the table.
  std::vector<std::array<std::uint32_t, 4>> mixed;
  for (std::uint32_t c = 0; c < 8; ++c) mixed.push_back({4 * c, 4 * c + 1, 4 * c + 2, 4 * c + 3});
  mixed[3] = {40, 40, 40, 40};
  const mg::ItemBatches<4> ok = mg::batch_items(mixed.data(), mixed.size());
  const std::vector<mg::BatchNodeSums<4>> t = mg::group_batch_sums(ok, 0, 1, 41);
  REQUIRE(t.size() == 1);
  CHECK(t[0].nodes[0] == 28);
  CHECK(t[0].nodes[3] == 1);
  check_tables(ok, t);
}
