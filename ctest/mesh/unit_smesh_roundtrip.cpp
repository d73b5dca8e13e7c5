// Our writer against the reader and against LANL's files, bit for bit; the fuzzer's seeds
// are what our writer makes of the built-in meshes.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>

#include "../scratch_dir.hpp"
#include "instrument/input_file.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/smesh_reader.hpp"

using namespace mesh;

namespace {

std::string file_bytes(const std::string& path) { return instrument::read_input_file(path, "test file"); }

void require_same_records(const Mesh& a, const Mesh& b) {
  CHECK(a.cells == b.cells);
  CHECK(a.faces == b.faces);
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    CHECK(std::bit_cast<std::uint64_t>(a.nodes[i].x) == std::bit_cast<std::uint64_t>(b.nodes[i].x));
    CHECK(std::bit_cast<std::uint64_t>(a.nodes[i].y) == std::bit_cast<std::uint64_t>(b.nodes[i].y));
    CHECK(std::bit_cast<std::uint64_t>(a.nodes[i].z) == std::bit_cast<std::uint64_t>(b.nodes[i].z));
  }
}

}  // namespace

TEST_CASE("the two-tet mesh's bytes: header and records where the format puts them", "[smesh][writer]") {
  const std::string b = format_smesh(two_tet_mesh());
  // 2 cells, 7 faces, 5 nodes: 64 + 144 + 280 + 120.
  REQUIRE(b.size() == 608);
  CHECK(b.substr(0, 20) == std::string("Tycho 2 Serial Mesh\0", 20));
  CHECK(b.substr(19, 13) == std::string(13, '\0'));
  const auto u64 = [&](std::size_t off) {
    std::uint64_t v;
    std::memcpy(&v, b.data() + off, 8);
    return v;
  };
  CHECK(u64(32) == 2);
  CHECK(u64(40) == 2);
  CHECK(u64(48) == 7);
  CHECK(u64(56) == 5);
  CHECK(u64(64 + 72 + 8) == 1);           // cell 1's 2nd face: the shared face 1
  CHECK(u64(64 + 72 + 64) == 2);          // cell 1's material
  CHECK(u64(64 + 144 + 8) == UINT64_MAX); // face 0 is on the boundary
  CHECK(u64(64 + 144 + 40 + 8) == 1);     // face 1's second cell
  double x;
  std::memcpy(&x, b.data() + 64 + 144 + 280 + 4 * 24, 8);
  CHECK(x == -1.0);  // node 4 = (-1, 0, 0)
}

TEST_CASE("format -> parse gives back the same records", "[smesh][writer]") {
  for (const Mesh& m : {corner_tet_mesh(), two_tet_mesh(), kuhn_cube_mesh(1, 3.5)})
    require_same_records(parse_smesh(format_smesh(m), "m"), m);
}

TEST_CASE("write_smesh -> read_smesh: the same records and geometry, the file as formatted", "[smesh][writer]") {
  ScratchDir dir("mesh_smesh_roundtrip");
  const std::string path = (dir.path / "kuhn.smesh").string();
  const Mesh m = kuhn_cube_mesh(1, 1.0);
  write_smesh(m, path);
  CHECK(dir.names() == std::set<std::string>{"kuhn.smesh"});
  CHECK(file_bytes(path) == format_smesh(m));
  const Mesh back = read_smesh(path);
  require_same_records(back, m);
  REQUIRE(back.geometry.size() == 6);
  for (std::size_t c = 0; c < 6; ++c) CHECK(back.geometry[c].volume == m.geometry[c].volume);
}

TEST_CASE("LANL's cube meshes written back by our writer are the same bytes", "[smesh][writer]") {
  for (const char* name : {"cube-12.smesh", "cube-1374.smesh", "cube-10717.smesh"}) {
    INFO(name);
    const std::string path = std::string(TYCHO_MESH_DIR) + "/" + name;
    CHECK(format_smesh(read_smesh(path)) == file_bytes(path));
  }
}

TEST_CASE("the fuzzer's seeds are our writer's output for the built-in meshes", "[smesh][seeds]") {
  const std::string dir = TYCHO_SEED_DIR;
  CHECK(file_bytes(dir + "/corner-tet.smesh") == format_smesh(corner_tet_mesh()));
  CHECK(file_bytes(dir + "/two-tets.smesh") == format_smesh(two_tet_mesh()));
  CHECK(file_bytes(dir + "/kuhn-cube.smesh") == format_smesh(kuhn_cube_mesh(1, 1.0)));
}
