// The grid hierarchy and its partitions (hierarchy.hpp, grid_partition.hpp): the default
// cube's counts and volume; every fine node of a refinement is a coarse node or the midpoint
// of the coarse edge midpoint_of names; majority inheritance with ties to the lower part;
// METIS on the coarsest grid with kMetisCellsPerPart cells a part, inherited by the finer
// grids (the finest of a sequence of independent meshes); node holders and owners; the finest
// grid's cells kept by parent (FinestCells::by_parent, store_finest_cells) or split by the
// processes that hold them (FinestCells::by_parent_deferred, split_finest_cells).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "../input_error_text.hpp"
#include "instrument/error.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/partition.hpp"
#include "mesh/refine.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"

namespace {

// From the nodes: the refined grids carry no geometry (build_hierarchy).
double cell_volume(const mesh::Mesh& m, std::size_t c) {
  const auto& n = m.cells[c].nodes;
  return std::fabs(mesh::six_signed_volume(m.nodes[n[0]], m.nodes[n[1]], m.nodes[n[2]], m.nodes[n[3]])) / 6;
}

double total_volume(const mesh::Mesh& m) {
  double v = 0;
  for (std::size_t c = 0; c < m.cells.size(); ++c) v += cell_volume(m, c);
  return v;
}

}  // namespace

TEST_CASE("the default cube: 6 n^3 cells of the unit cube, boundary nodes on its faces") {
  const mesh::Mesh m = mesh::kuhn_cube_mesh(3, 1.0);
  CHECK(m.cells.size() == 162);
  CHECK(m.nodes.size() == 64);
  CHECK(std::fabs(total_volume(m) - 1.0) < 1e-14);
  const std::vector<mg::Grid> g = mg::build_hierarchy(m, 1, "cube");
  int boundary = 0;
  for (std::size_t n = 0; n < m.nodes.size(); ++n) {
    const auto& p = m.nodes[n];
    const bool on_face = p.x == 0 || p.x == 1 || p.y == 0 || p.y == 1 || p.z == 0 || p.z == 1;
    CHECK(bool(g[0].dirichlet[n]) == on_face);
    boundary += on_face;
  }
  CHECK(boundary == 64 - 8);  // all but the 2^3 interior nodes
}

TEST_CASE("refinement nests: fine nodes are coarse nodes or midpoints of coarse edges") {
  const std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 3, "cube");
  REQUIRE(g.size() == 3);
  for (std::size_t l = 1; l < 3; ++l) {
    const mesh::Mesh &fine = g[l].mesh, &coarse = g[l - 1].mesh;
    CHECK(fine.cells.size() == 8 * coarse.cells.size());
    CHECK(g[l].coarse_nodes == coarse.nodes.size());
    REQUIRE(fine.nodes.size() == coarse.nodes.size() + g[l].midpoint_of.size());
    CHECK(std::fabs(total_volume(fine) - 1.0) < 1e-13);
    for (std::size_t n = 0; n < coarse.nodes.size(); ++n) CHECK(fine.nodes[n] == coarse.nodes[n]);
    for (std::size_t k = 0; k < g[l].midpoint_of.size(); ++k) {
      const auto [a, b] = g[l].midpoint_of[k];
      CHECK(a < b);
      const auto &p = coarse.nodes[a], &q = coarse.nodes[b], &m = fine.nodes[coarse.nodes.size() + k];
      CHECK(m.x == 0.5 * (p.x + q.x));
      CHECK(m.y == 0.5 * (p.y + q.y));
      CHECK(m.z == 0.5 * (p.z + q.z));
    }
    // Children 8c..8c+7 lie inside parent c: their volumes add up to the parent's.
    for (std::size_t c = 0; c < coarse.cells.size(); ++c) {
      double v = 0;
      for (std::size_t k = 0; k < 8; ++k) v += cell_volume(fine, 8 * c + k);
      CHECK(std::fabs(v - cell_volume(coarse, c)) < 1e-15);
    }
  }
}

TEST_CASE("a coarse cell goes where most of its children are, a tie to the lower part") {
  const std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(1, 1.0), 2, "cube");  // 6 -> 48 cells
  mesh::Partition fine{3, std::vector<std::int32_t>(48, 2)};
  const std::int32_t kids[6][8] = {{1, 1, 1, 0, 0, 0, 2, 2},   // 3, 3, 2: tie of 0 and 1 -> 0
                                   {2, 2, 2, 2, 2, 1, 1, 1},   // 2
                                   {0, 1, 2, 1, 2, 1, 2, 1},   // 1 (four)
                                   {2, 2, 2, 2, 1, 1, 1, 1},   // tie of 1 and 2 -> 1
                                   {0, 0, 0, 0, 0, 0, 0, 0},   // 0
                                   {2, 0, 2, 0, 2, 0, 1, 1}};  // 0 and 2 three each -> 0
  for (int c = 0; c < 6; ++c)
    for (int k = 0; k < 8; ++k) fine.part_of_cell[static_cast<std::size_t>(8 * c + k)] = kids[c][k];
  const auto parts = mg::inherit_parts(g, fine);
  REQUIRE(parts.size() == 2);
  CHECK(parts[1] == fine.part_of_cell);
  CHECK(parts[0] == std::vector<std::int32_t>{0, 2, 1, 1, 0, 0});
  CHECK(mg::part_sizes(parts[0], 3) == std::vector<std::int64_t>{3, 2, 1});
}

TEST_CASE("METIS partitions the coarsest grid with 128 cells a part; finer grids inherit it") {
  // The 2^3 cube: 48, 384, 3072 and 24576 cells.
  const std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 4, "cube");
  CHECK(mg::metis_grid(g, 1) == 1);   // 48 < 128 <= 384
  CHECK(mg::metis_grid(g, 3) == 1);   // 384 = 3 x 128
  CHECK(mg::metis_grid(g, 4) == 2);   // 384 < 512 <= 3072
  CHECK(mg::metis_grid(g, 24) == 2);  // 3072 = 24 x 128
  CHECK(mg::metis_grid(g, 25) == 3);  // none has enough: the finest
  CHECK(mg::metis_grid(g, 48) == 3);
  const auto parts = mg::partition_grids(g, 4, "cube");
  const mesh::Partition metis = mesh::metis_partition(g[2].mesh, 4, "cube");
  REQUIRE(parts.size() == 4);
  CHECK(parts[2] == metis.part_of_cell);
  for (std::size_t c = 0; c < parts[3].size(); ++c) CHECK(parts[3][c] == parts[2][c / 8]);  // a child's its parent's
  for (std::size_t l = 0; l < 2; ++l)  // coarser: the part most of the children are in
    for (std::size_t c = 0; c < parts[l].size(); ++c) {
      int count[4] = {0, 0, 0, 0};
      for (std::size_t k = 8 * c; k < 8 * c + 8; ++k) ++count[parts[l + 1][k]];
      CHECK(*std::max_element(count, count + 4) == count[parts[l][c]]);
    }
  for (std::size_t l = 0; l < 4; ++l) {
    const std::vector<std::int64_t> sizes = mg::part_sizes(parts[l], 4);
    CHECK(*std::min_element(sizes.begin(), sizes.end()) > 0);
  }
  // The finest grid's balance is the partitioned grid's, exactly (eight children a cell).
  const std::vector<std::int64_t> at2 = mg::part_sizes(parts[2], 4), at3 = mg::part_sizes(parts[3], 4);
  for (std::size_t q = 0; q < 4; ++q) CHECK(at3[q] == 8 * at2[q]);
}

TEST_CASE("a sequence of independent meshes is partitioned on its finest grid") {
  std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 3, "cube");
  g[2].refined = false;  // as build_sequence leaves them: no parent to inherit from
  CHECK(mg::metis_grid(g, 2) == 2);
  g[2].refined = true;
  g[1].refined = false;  // grid 2 refines grid 1 only: grid 0 is out of reach
  CHECK(mg::metis_grid(g, 2) == 1);
  CHECK(mg::metis_grid(g, 4) == 2);
}

namespace {

// A grid of a mesh's own cells, or (as_corners) of its nodes and its cells' corners alone, as
// a faceless refined grid holds them.
mg::Grid grid_of(const mesh::Mesh& m, bool as_corners = false) {
  mg::Grid g;
  g.mesh = m;
  if (as_corners) {
    g.corners = mesh::cell_corners(m);
    g.mesh.cells.clear();
    g.mesh.faces.clear();
  }
  return g;
}

}  // namespace

TEST_CASE("node holders: the parts with a cell at the node, ascending; the owner is the first") {
  const mesh::Mesh m = mesh::kuhn_cube_mesh(1, 1.0);  // 6 cells around the diagonal 0-7
  const std::vector<std::int32_t> part{3, 1, 1, 0, 3, 3};
  const mg::NodeRanks r = mg::node_ranks(grid_of(m), part);
  // A grid of corners alone: the same holders.
  const mg::NodeRanks rc = mg::node_ranks(grid_of(m, true), part);
  CHECK(rc.offsets == r.offsets);
  CHECK(rc.ranks == r.ranks);
  // Nodes 0 and 7 are in every cell.
  for (mg::Index n : {0u, 7u}) {
    REQUIRE(r.count(n) == 3);
    CHECK(r.ranks[r.offsets[n]] == 0);
    CHECK(r.ranks[r.offsets[n] + 1] == 1);
    CHECK(r.ranks[r.offsets[n] + 2] == 3);
    CHECK(r.owner(n) == 0);
  }
  for (mg::Index n = 0; n < 8; ++n) {
    std::vector<std::int32_t> want;
    for (std::size_t c = 0; c < 6; ++c)
      for (mg::Index v : m.cells[c].nodes)
        if (v == n) want.push_back(part[c]);
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    CHECK(std::vector<std::int32_t>(r.ranks.begin() + r.offsets[n], r.ranks.begin() + r.offsets[n + 1]) == want);
    CHECK(r.holds(n, want.front()));
    CHECK_FALSE(r.holds(n, 2));
  }
}

TEST_CASE("node holders of a one-part partition: that part at every node in a cell, none elsewhere") {
  mesh::Mesh m = mesh::kuhn_cube_mesh(1, 1.0);
  m.nodes.push_back({2, 2, 2});  // node 8: in no cell
  const mg::NodeRanks r = mg::node_ranks(grid_of(m), std::vector<std::int32_t>(6, 5));
  REQUIRE(r.offsets.size() == 10);
  for (mg::Index n = 0; n < 8; ++n) {
    REQUIRE(r.count(n) == 1);
    CHECK(r.owner(n) == 5);
    CHECK(r.holds(n, 5));
    CHECK_FALSE(r.holds(n, 0));
  }
  CHECK(r.count(8) == 0);
  CHECK(r.ranks.size() == 8);
  // The same as the general path gives with a second part somewhere: cell 0 in part 5 too.
  std::vector<std::int32_t> two(6, 5);
  two[3] = 1;
  const mg::NodeRanks g = mg::node_ranks(grid_of(m), two);
  CHECK(g.count(8) == 0);
  CHECK(g.offsets[8] == g.offsets[9]);
}

TEST_CASE("a domain too small or too large for the solver's products is refused, with its extent") {
  const auto scaled = [](double f) {
    mesh::Mesh m = mesh::kuhn_cube_mesh(2, 1.0);
    for (mesh::Vec3& v : m.nodes) v = {v.x * f, v.y * f, v.z * f};
    return m;
  };
  const auto refusal = [](const mesh::Mesh& m) {
    try {
      mg::check_nodes(m, "m.smesh");
    } catch (const instrument::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(refusal(scaled(1e-90)) ==
        "m.smesh:nodes: a domain whose largest extent is between 1e-30 and 1e30 (rescale its unit), found 1e-90");
  CHECK(refusal(scaled(1e40)) ==
        "m.smesh:nodes: a domain whose largest extent is between 1e-30 and 1e30 (rescale its unit), found 1e+40");
  CHECK(refusal(scaled(1e-29)) == "no error");
  CHECK(refusal(scaled(1e29)) == "no error");
  mesh::Mesh nan_node = scaled(1);
  nan_node.nodes[3].y = std::nan("");
  CHECK(refusal(nan_node).find("largest extent") != std::string::npos);
}

TEST_CASE("node holders of a refined grid from the coarser grid's: node_ranks' own, for any inherited parts") {
  // The 2^3 cube over 3 grids (48, 384, 3072 cells), faceless as a run builds them.
  const std::vector<mg::Grid> g = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 3, "cube", mg::GridFaces::omitted);
  // several: midpoints held by more than one part; apart: midpoints whose ends share a part
  // that no cell at the edge is in (what taking the ends' shared parts would get wrong).
  const auto check_level = [&](const std::vector<std::int32_t>& coarse_parts, std::size_t l, std::size_t* several,
                               std::size_t* apart) {
    std::vector<std::int32_t> fine_parts(g[l].cell_count());
    for (std::size_t c = 0; c < fine_parts.size(); ++c) fine_parts[c] = coarse_parts[c / 8];
    const mg::NodeRanks coarse = mg::node_ranks(g[l - 1], coarse_parts);
    const mg::NodeRanks want = mg::node_ranks(g[l], fine_parts);
    mg::NodeRanks got;
    REQUIRE(mg::refined_node_ranks(g[l], fine_parts, g[l - 1], coarse_parts, coarse, got));
    CHECK(got.offsets == want.offsets);
    CHECK(got.ranks == want.ranks);
    for (mg::Index n = static_cast<mg::Index>(g[l].coarse_nodes); n < g[l].mesh.nodes.size(); ++n) {
      *several += want.count(n) > 1;
      const auto& e = g[l].midpoint_of[n - g[l].coarse_nodes];
      std::size_t shared = 0;
      for (std::uint32_t k = coarse.offsets[e[0]]; k < coarse.offsets[e[0] + 1]; ++k)
        shared += coarse.holds(e[1], coarse.ranks[k]);
      *apart += shared > want.count(n);
    }
  };
  std::size_t several = 0, apart = 0;
  // METIS's parts, one part, and scattered parts (a part's cells apart: edges whose ends share
  // two parts that no cell at the edge is in).
  for (int parts : {1, 2, 4}) check_level(mg::partition_grids(g, parts, "cube")[1], 2, &several, &apart);
  for (std::size_t l : {1u, 2u}) {
    for (std::uint32_t seed : {1u, 7u, 12345u}) {
      std::vector<std::int32_t> coarse_parts(g[l - 1].cell_count());
      std::uint32_t x = seed;
      for (std::int32_t& q : coarse_parts) {
        x = x * 1664525u + 1013904223u;  // a fixed LCG: the same parts on every run
        q = static_cast<std::int32_t>((x >> 16) % 5);
      }
      check_level(coarse_parts, l, &several, &apart);
    }
  }
  CHECK(several > 100);  // the border midpoints' path ran, not only the one-part shortcut
  CHECK(apart > 10);     // and where the lookup, not the ends' shared parts, decided
  // Refused: a cell not in its parent's part, and a grid that is not a refinement.
  const std::vector<std::int32_t> coarse_parts(g[1].cell_count(), 0);
  std::vector<std::int32_t> fine_parts(g[2].cell_count(), 0);
  fine_parts[17] = 1;
  const mg::NodeRanks coarse = mg::node_ranks(g[1], coarse_parts);
  mg::NodeRanks out;
  out.ranks = {42};
  CHECK_FALSE(mg::refined_node_ranks(g[2], fine_parts, g[1], coarse_parts, coarse, out));
  mg::Grid independent = g[2];
  independent.refined = false;
  fine_parts[17] = 0;
  CHECK_FALSE(mg::refined_node_ranks(independent, fine_parts, g[1], coarse_parts, coarse, out));
  CHECK(out.ranks == std::vector<std::int32_t>{42});  // left alone
  CHECK(mg::refined_node_ranks(g[2], fine_parts, g[1], coarse_parts, coarse, out));
}

TEST_CASE("a finest grid kept by parent: the refinement's children, node holders alike, stored on demand") {
  // The 2^3 cube over 3 grids, the finest's cells kept by parent (a run's), its parts inherited
  // from METIS on the middle grid.
  const mesh::Mesh cube = mesh::kuhn_cube_mesh(2, 1.0);
  const std::vector<mg::Grid> whole = mg::build_hierarchy(cube, 3, "cube", mg::GridFaces::omitted);
  std::vector<mg::Grid> g = mg::build_hierarchy(cube, 3, "cube", mg::GridFaces::omitted, mg::FinestCells::by_parent);
  REQUIRE(g[2].cells_by_parent());
  CHECK(g[2].corners.empty());
  REQUIRE(g[2].cell_count() == whole[2].cell_count());
  CHECK(g[2].midpoint_of == whole[2].midpoint_of);
  CHECK(g[2].dirichlet == whole[2].dirichlet);
  // Its nodes derived, not stored: each point the refinement's, bit for bit.
  CHECK(g[2].nodes_derived);
  CHECK(g[2].mesh.nodes.empty());
  REQUIRE(g[2].node_count() == whole[2].mesh.nodes.size());
  const mg::NodePoints points(g[2], &g[1]);
  REQUIRE(points.size() == whole[2].mesh.nodes.size());
  for (mg::Index n = 0; n < g[2].node_count(); ++n) {
    const mesh::Vec3 p = points[n];
    REQUIRE(std::memcmp(&p, &whole[2].mesh.nodes[n], sizeof p) == 0);
  }
  CHECK_THROWS_AS(mg::NodePoints(g[2], nullptr), std::logic_error);
  CHECK_THROWS_AS(mg::NodePoints(g[2], &g[0]), std::logic_error);
  for (mg::Index q = 0; q < g[1].cell_count(); ++q) {
    const std::array<std::array<mg::Index, 4>, 8> kids = g[2].children(g[1], q), stored = whole[2].children(whole[1], q);
    REQUIRE(kids == stored);
    for (std::size_t k = 0; k < 8; ++k) REQUIRE(stored[k] == whole[2].cell(8 * std::size_t{q} + k));
  }
  // The node holders from the coarser grid need no cell of the finest.
  for (int p : {2, 3}) {
    const std::vector<std::vector<std::int32_t>> parts = mg::partition_grids(whole, p, "cube");
    const mg::NodeRanks coarse = mg::node_ranks(g[1], parts[1]);
    const mg::NodeRanks want = mg::node_ranks(whole[2], parts[2]);
    mg::NodeRanks got;
    REQUIRE(mg::refined_node_ranks(g[2], parts[2], g[1], parts[1], coarse, got));
    CHECK(got.offsets == want.offsets);
    CHECK(got.ranks == want.ranks);
    CHECK_THROWS_AS(mg::node_ranks(g[2], parts[2]), std::logic_error);
  }
  // Deferred: split by the processes that hold the parents, each its own: a parent's split
  // is there once its process has split, the others' not (children() refuses them), and the
  // three processes' together are by_parent's.
  const std::vector<std::vector<std::int32_t>> three = mg::partition_grids(whole, 3, "cube");
  std::vector<mg::Grid> d = mg::build_hierarchy(cube, 3, "cube", mg::GridFaces::omitted, mg::FinestCells::by_parent_deferred);
  REQUIRE(d[2].cells_by_parent());
  REQUIRE(d[2].cell_count() == whole[2].cell_count());
  CHECK(d[2].nodes_derived);
  CHECK(d[2].node_count() == whole[2].mesh.nodes.size());
  CHECK(d[2].midpoint_of == g[2].midpoint_of);
  CHECK(d[2].dirichlet == g[2].dirichlet);
  for (int me = 0; me < 3; ++me) {
    CHECK_NOTHROW(mg::split_finest_cells(d, three[1], me, "cube"));
    // The splits kept are those of the parents held (processes 0..me here), no place for others.
    const auto held = std::count_if(three[1].begin(), three[1].end(), [me](std::int32_t r) { return r <= me; });
    CHECK(d[2].splits.diagonals().size() == static_cast<std::size_t>(held));
    for (mg::Index q = 0; q < d[1].cell_count(); ++q) {
      CAPTURE(me, q);
      if (three[1][q] <= me) {
        REQUIRE(d[2].children(d[1], q) == g[2].children(g[1], q));
      } else {
        CHECK_FALSE(d[2].splits.held(q));  // kept by its own process only
        CHECK_THROWS_AS(d[2].children(d[1], q), std::logic_error);
      }
    }
  }
  CHECK(d[2].splits.diagonals() == g[2].splits.diagonals());
  CHECK_THROWS_AS(mg::split_finest_cells(d, std::vector<std::int32_t>(5, 0), 0, "cube"), std::logic_error);
  // A flat cell whose children are degenerate: refused by the process that holds it, with the
  // refinement's own line, and by store_finest_cells; the other process has nothing to refuse.
  const std::vector<mesh::Vec3> flat_nodes = {{0, 0, 0}, {1, 0, 0}, {0.5, 1e-3, 0}, {0.5, 2e-4, 1e-9}};
  const mesh::Mesh flat = mesh::mesh_from_cells(flat_nodes, {{{0, 1, 2, 3}, 0}}, "flat");
  const std::string whole_line = input_error_text([&] { (void)mg::build_hierarchy(flat, 2, "flat", mg::GridFaces::omitted); });
  REQUIRE(whole_line.find("degenerate") != std::string::npos);
  CHECK(input_error_text([&] { (void)mg::build_hierarchy(flat, 2, "flat", mg::GridFaces::omitted, mg::FinestCells::by_parent); }) ==
        whole_line);
  std::vector<mg::Grid> f = mg::build_hierarchy(flat, 2, "flat", mg::GridFaces::omitted, mg::FinestCells::by_parent_deferred);
  CHECK(input_error_text([&] { mg::split_finest_cells(f, {0}, 1, "flat"); }).empty());
  CHECK(f[1].cells_by_parent());  // a process that holds no parent: still a grid kept by parent
  CHECK(f[1].cell_count() == 8);
  CHECK(f[1].splits.diagonals().empty());
  CHECK_THROWS_AS(f[1].children(f[0], 0), std::logic_error);
  CHECK(input_error_text([&] { mg::split_finest_cells(f, {0}, 0, "flat"); }) == whole_line);
  CHECK(input_error_text([&] { mg::store_finest_cells(f, "flat"); }) == whole_line);
  // Stored on demand (METIS or a partition file on the finest grid): the whole grid.
  mg::store_finest_cells(g, "cube");
  CHECK_FALSE(g[2].cells_by_parent());
  CHECK(g[2].corners == whole[2].corners);
  CHECK_FALSE(g[2].nodes_derived);  // and its points made, as METIS reads them
  REQUIRE(g[2].mesh.nodes.size() == whole[2].mesh.nodes.size());
  CHECK(std::memcmp(g[2].mesh.nodes.data(), whole[2].mesh.nodes.data(), whole[2].mesh.nodes.size() * sizeof(mesh::Vec3)) == 0);
  CHECK_THROWS_AS(mg::build_hierarchy(cube, 1, "cube", mg::GridFaces::omitted, mg::FinestCells::by_parent), std::logic_error);
}

TEST_CASE("a finest grid's splits kept by the processes that hold their parents, stored whole after a part") {
  // The 3^3 cube over 3 grids: 1296 parents, not a whole number of 64-bit words, in 5 parts,
  // each process's splits packed in the order of its parents.
  const mesh::Mesh cube = mesh::kuhn_cube_mesh(3, 1.0);
  const std::vector<mg::Grid> whole = mg::build_hierarchy(cube, 3, "cube", mg::GridFaces::omitted);
  const std::vector<mg::Grid> all = mg::build_hierarchy(cube, 3, "cube", mg::GridFaces::omitted, mg::FinestCells::by_parent);
  REQUIRE(all[1].cell_count() == 1296);
  const std::vector<std::vector<std::int32_t>> parts = mg::partition_grids(whole, 5, "cube");
  for (int me = 0; me < 5; ++me) {
    CAPTURE(me);
    std::vector<mg::Grid> d = mg::build_hierarchy(cube, 3, "cube", mg::GridFaces::omitted, mg::FinestCells::by_parent_deferred);
    mg::split_finest_cells(d, parts[1], me, "cube");
    std::size_t mine = 0;
    for (mg::Index q = 0; q < d[1].cell_count(); ++q) {
      REQUIRE(d[2].splits.held(q) == (parts[1][q] == me));
      if (parts[1][q] != me) continue;
      ++mine;
      REQUIRE(d[2].children(d[1], q) == all[2].children(all[1], q));
    }
    CHECK(d[2].splits.diagonals().size() == mine);
    CHECK_FALSE(d[2].splits.held(static_cast<mg::Index>(d[1].cell_count())));  // past the last parent
    // Stored after one process's split (METIS on the finest grid): every parent's children.
    mg::store_finest_cells(d, "cube");
    CHECK(d[2].corners == whole[2].corners);
  }
}

TEST_CASE("a finest grid's parts kept by parent: the same levels, holders and part sizes as stored") {
  // The 3^3 cube over 3 grids, the finest kept by parent as a run keeps it; METIS (or one part)
  // on the middle grid, inherited with the finest's parts stored and kept by parent.
  const std::vector<mg::Grid> g =
      mg::build_hierarchy(mesh::kuhn_cube_mesh(3, 1.0), 3, "cube", mg::GridFaces::omitted, mg::FinestCells::by_parent);
  for (int p : {1, 2, 3}) {
    INFO(p << " parts");
    const mesh::Partition part = mg::metis_partition_grid(g[1], p, "cube");
    const auto stored = mg::inherit_parts(g, 1, part);
    const auto by_parent = mg::inherit_parts(g, 1, part, mg::FinestParts::by_parent);
    REQUIRE(stored[2].size() == g[2].cell_count());
    CHECK(by_parent[2].empty());
    CHECK(by_parent[0] == stored[0]);
    CHECK(by_parent[1] == stored[1]);
    CHECK_FALSE(mg::parts_by_parent(g, stored, 2));
    REQUIRE(mg::parts_by_parent(g, by_parent, 2));
    CHECK(mg::stored_parts(g, by_parent, 2) == stored[2]);
    for (std::size_t l = 0; l < g.size(); ++l) CHECK(mg::grid_part_sizes(g, by_parent, l, p) == mg::part_sizes(stored[l], p));
    for (std::size_t c = 0; c < g[2].cell_count(); c += 7) CHECK(mg::part_of(by_parent, 2, c) == stored[2][c]);
    // The node holders from the coarser grid's, and every process's numbered levels.
    const mg::NodeRanks coarse = mg::node_ranks(g[1], stored[1]);
    mg::NodeRanks want, got;
    REQUIRE(mg::refined_node_ranks(g[2], stored[2], g[1], stored[1], coarse, want));
    REQUIRE(mg::refined_node_ranks(g[2], by_parent[2], g[1], by_parent[1], coarse, got));
    CHECK(got.offsets == want.offsets);
    CHECK(got.ranks == want.ranks);
    for (int me = 0; me < p; ++me) {
      INFO("process " << me);
      const std::vector<mg::LocalLevel> a = mg::build_local_levels(g, stored, me, p);
      const std::vector<mg::LocalLevel> b = mg::build_local_levels(g, by_parent, me, p);
      REQUIRE(a.size() == b.size());
      for (std::size_t l = 0; l < a.size(); ++l) {
        INFO("grid " << l);
        CHECK(b[l].node_global == a[l].node_global);
        CHECK(b[l].n_local == a[l].n_local);
        CHECK(b[l].owned == a[l].owned);
        CHECK(b[l].loose_cells == a[l].loose_cells);
        CHECK(b[l].family_shape == a[l].family_shape);
        REQUIRE(b[l].family_count() == a[l].family_count());
        for (std::size_t f = 0; f < a[l].family_count(); ++f) CHECK(b[l].family(f) == a[l].family(f));
        CHECK(b[l].coarse_pairs == a[l].coarse_pairs);
        CHECK(b[l].assemble.targets == a[l].assemble.targets);
        CHECK(b[l].assemble.sources == a[l].assemble.sources);
        CHECK(b[l].restrict_sum.sources == a[l].restrict_sum.sources);
        CHECK(b[l].prolong_fetch.sources == a[l].prolong_fetch.sources);
      }
      CHECK(a.back().cell_count() == static_cast<std::size_t>(mg::part_sizes(stored[2], p)[static_cast<std::size_t>(me)]));
    }
  }
  // Where METIS cuts the finest grid itself (no grid above it to inherit), its parts are kept.
  const std::vector<mg::Grid> stored_cells = mg::build_hierarchy(mesh::kuhn_cube_mesh(2, 1.0), 2, "cube", mg::GridFaces::omitted);
  const auto at_finest = mg::inherit_parts(stored_cells, 1, mg::metis_partition_grid(stored_cells[1], 2, "cube"),
                                           mg::FinestParts::by_parent);
  CHECK(at_finest[1].size() == stored_cells[1].cell_count());
}
