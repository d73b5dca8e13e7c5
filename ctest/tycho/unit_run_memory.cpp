// run_memory's shapes and growth, on meshes made in code: partition_shape counts the largest
// part and its shared faces, and the estimate grows with every option and is far beyond any
// machine for the refused case. The estimate against the peaks measured on Tycho2's meshes is
// unit_run_memory_tycho2.cpp.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "mesh/partition.hpp"
#include "tycho/run_memory.hpp"

#include "../mesh/jittered_cube.hpp"

namespace {

// [0,100]^3 as 12^3 jittered Kuhn cubes (../mesh/jittered_cube.hpp): 10368 cells, the size of
// the main job's mesh, unstructured so that METIS's parts are not a grid's slabs.
constexpr std::uint64_t kCells = 6 * 12 * 12 * 12;
const mesh::Mesh& cube() {
  static const mesh::Mesh m = meshtest::jittered_cube(12, 100.0);
  return m;
}

// The shape the driver makes for the cube at `ranks` ranks (METIS, as tycho partitions).
tycho::RunShape shape_of(int ranks, int directions, int groups) {
  tycho::RunShape s = tycho::partition_shape(cube(), mesh::metis_partition(cube(), ranks, "jittered cube"));
  s.directions = directions;
  s.groups = groups;
  s.iterations = 1;
  return s;
}

}  // namespace

TEST_CASE("partition_shape: the largest part and the most shared faces", "[run_memory]") {
  const tycho::RunShape one = shape_of(1, 80, 2);
  CHECK(one.mesh_cells == kCells);
  CHECK(one.cells == kCells);
  CHECK(one.remote_faces == 0);
  CHECK(one.ranks == 1);
  const tycho::RunShape two = shape_of(2, 80, 2);
  CHECK(two.mesh_cells == kCells);
  CHECK(two.cells >= kCells / 2);
  CHECK(two.cells <= kCells * 103 / 200 + 1);  // METIS's imbalance, at most 3%
  CHECK(two.remote_faces > 0);
  CHECK(two.ranks == 2);
}

TEST_CASE("larger options need more; the refused case is far beyond any machine here", "[run_memory]") {
  const tycho::RunShape base = shape_of(2, 80, 2);
  tycho::RunShape groups = base, directions = base, iterations = base;
  groups.groups = 16;
  directions.directions = 1024;
  iterations.iterations = 5;
  CHECK(tycho::run_peak_bytes(base) < tycho::run_peak_bytes(groups));
  CHECK(tycho::run_peak_bytes(base) < tycho::run_peak_bytes(directions));
  CHECK(tycho::run_peak_bytes(base) < tycho::run_peak_bytes(iterations));
  // --product 64x256 --groups 64 on the cube: psi alone is 10368 x 16384 x 64 x 32 B.
  const tycho::RunShape huge = shape_of(1, 16384, 64);
  CHECK(tycho::run_peak_bytes(huge) > kCells * 16384 * 64 * 32);
  CHECK(tycho::run_peak_bytes(huge) < kCells * 16384 * 64 * 32 * 11 / 10);
}
