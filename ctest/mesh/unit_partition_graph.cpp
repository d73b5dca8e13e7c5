// The cell dual graph of hand-built meshes, METIS partitions of an unstructured cube of 1296
// cells (jittered_cube.hpp), the per-part report against counts made another way.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "../input_error_text.hpp"
#include "mesh/dual_graph.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/partition.hpp"
#include "mesh/partition_report.hpp"

#include "jittered_cube.hpp"

using namespace mesh;

namespace {

std::vector<Index> neighbours(const DualGraph& g, std::size_t c) {
  std::vector<Index> n(g.adjacent.begin() + g.offsets[c], g.adjacent.begin() + g.offsets[c + 1]);
  std::sort(n.begin(), n.end());
  return n;
}

}  // namespace

TEST_CASE("dual graph: one tet has no neighbour, two tets one edge", "[partition][dual]") {
  const DualGraph one = cell_dual_graph(corner_tet_mesh());
  CHECK(one.offsets == std::vector<Index>{0, 0});
  const DualGraph two = cell_dual_graph(two_tet_mesh());
  CHECK(two.offsets == std::vector<Index>{0, 1, 2});
  CHECK(two.adjacent == std::vector<Index>{1, 0});
}

TEST_CASE("dual graph: Kuhn's six tets form a ring around the cube's diagonal", "[partition][dual]") {
  // Tet k walks 0 -> 7 adding the axes in order k: 0 (x,y,z) = nodes 0,1,3,7; 1 (x,z,y) =
  // 0,1,5,7; 2 (y,x,z) = 0,2,3,7; 3 (y,z,x) = 0,2,6,7; 4 (z,x,y) = 0,4,5,7; 5 (z,y,x) =
  // 0,4,6,7. Two share a face when they share 3 nodes.
  const DualGraph g = cell_dual_graph(kuhn_cube_mesh(1, 1.0));
  REQUIRE(g.vertices() == 6);
  CHECK(g.adjacent.size() == 12);  // 6 interior faces, each listed from both cells
  CHECK(neighbours(g, 0) == std::vector<Index>{1, 2});
  CHECK(neighbours(g, 1) == std::vector<Index>{0, 4});
  CHECK(neighbours(g, 2) == std::vector<Index>{0, 3});
  CHECK(neighbours(g, 3) == std::vector<Index>{2, 5});
  CHECK(neighbours(g, 4) == std::vector<Index>{1, 5});
  CHECK(neighbours(g, 5) == std::vector<Index>{3, 4});
}

TEST_CASE("METIS splits an unstructured cube into 2, 4 and 8 parts covering every cell within its imbalance",
          "[partition][metis]") {
  // [0,100]^3 as 6^3 Kuhn cubes, the interior nodes jittered (jittered_cube.hpp): 6 n^3 =
  // 1296 cells; on the boundary 2 triangles a square, 6 sides of n^2 squares: 12 n^2 = 432.
  const Mesh m = meshtest::jittered_cube(6, 100.0);
  const std::size_t cells = 1296, boundary_faces = 432;
  REQUIRE(m.cells.size() == cells);
  const DualGraph g = cell_dual_graph(m);
  // 4 faces a cell; an interior one is an edge listed from both of its cells.
  CHECK(g.adjacent.size() == 4 * cells - boundary_faces);
  for (int parts : {2, 4, 8}) {
    INFO("P = " << parts);
    const Partition p = metis_partition(m, parts, "jittered cube");
    REQUIRE(p.part_of_cell.size() == cells);
    const auto summary = summarize_parts(m, p);
    std::size_t covered = 0, boundary = 0, shared = 0;
    for (const PartSummary& s : summary) {
      CHECK(s.cells > 0);
      // ufactor 30: at most 1.03 x the mean; one cell more for the rounding of the mean.
      CHECK(s.cells <= static_cast<std::size_t>(1.03 * cells / parts) + 1);
      CHECK(!s.neighbours.empty());
      covered += s.cells;
      boundary += s.mesh_boundary_faces;
      shared += s.partition_faces;
    }
    CHECK(covered == cells);
    CHECK(boundary == boundary_faces);
    // Each cut edge of the dual graph is one face counted from both of its parts.
    std::size_t cut = 0;
    for (std::size_t c = 0; c < cells; ++c)
      for (Index k = g.offsets[c]; k < g.offsets[c + 1]; ++k) cut += p.part_of_cell[c] != p.part_of_cell[g.adjacent[k]];
    CHECK(shared == cut);
    CHECK(metis_partition(m, parts, "again").part_of_cell == p.part_of_cell);  // the fixed seed
  }
}

TEST_CASE("a part count outside [1, cells] is refused", "[partition][metis]") {
  const Mesh m = two_tet_mesh();
  CHECK(input_error_text([&] { (void)metis_partition(m, 3, "two.smesh"); }) ==
        "two.smesh:P: expected a part count in [1, 2] (at most one part per cell), found 3");
  CHECK(input_error_text([&] { (void)metis_partition(m, 0, "two.smesh"); }) ==
        "two.smesh:P: expected a part count in [1, 2] (at most one part per cell), found 0");
  const Partition one = metis_partition(m, 1, "two.smesh");
  CHECK(one.part_of_cell == std::vector<std::int32_t>{0, 0});
  // (METIS may leave a part empty on a graph this small: the report is checked on a given split.)
  const auto s = summarize_parts(m, Partition{2, {0, 1}});
  CHECK(s[0].cells == 1);
  CHECK(s[0].neighbours == std::vector<int>{1});
  CHECK(s[0].partition_faces == 1);
  CHECK(s[0].mesh_boundary_faces == 3);
}
