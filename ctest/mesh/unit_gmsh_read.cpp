// The Gmsh readers on gmsh's own files: one two-material cube (gmsh_data/make.sh: the unit
// cube cut at x = 0.5, physical volumes 1 and 2, 48 tetrahedra on 23 nodes) written in the
// four encodings must read to the same mesh, bit for bit, with the cube's volume, surface
// and materials; read_mesh picks the reader by the extension.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <map>

#include "../input_error_text.hpp"
#include "instrument/input_file.hpp"
#include "mesh/gmsh_reader.hpp"
#include "mesh/mesh_reader.hpp"

using namespace mesh;

namespace {

const std::string kData = MESH_GMSH_DATA_DIR;

GmshMesh parse_file(const std::string& name) {
  const std::string path = kData + "/" + name;
  GmshMesh m = parse_gmsh(instrument::read_input_file(path, "Gmsh mesh"), path);
  check_gmsh_mesh(m, path);
  return m;
}

bool bit_equal(const Vec3& a, const Vec3& b) {
  return std::bit_cast<std::uint64_t>(a.x) == std::bit_cast<std::uint64_t>(b.x) &&
         std::bit_cast<std::uint64_t>(a.y) == std::bit_cast<std::uint64_t>(b.y) &&
         std::bit_cast<std::uint64_t>(a.z) == std::bit_cast<std::uint64_t>(b.z);
}

}  // namespace

TEST_CASE("the four encodings of one mesh read to the same mesh", "[gmsh]") {
  const GmshMesh ref = parse_file("cube-4.1-ascii.msh");
  CHECK(ref.format == GmshFormat{4, 1, false});
  REQUIRE(ref.mesh.cells.size() == 48);
  REQUIRE(ref.mesh.nodes.size() == 23);
  // The first tetrahedron of the file: element 1, nodes 2 1 14 13 of volume 1 (material 1).
  CHECK(ref.element_tags[0] == 1);
  CHECK(ref.mesh.cells[0].material == 1);
  CHECK(ref.node_tags[ref.mesh.cells[0].nodes[0]] == 2);
  CHECK(ref.node_tags[ref.mesh.cells[0].nodes[2]] == 14);
  const std::pair<const char*, GmshFormat> others[] = {{"cube-4.1-binary.msh", {4, 1, true}},
                                                       {"cube-2.2-ascii.msh", {2, 2, false}},
                                                       {"cube-2.2-binary.msh", {2, 2, true}}};
  for (const auto& [name, format] : others) {
    INFO(name);
    const GmshMesh m = parse_file(name);
    CHECK(m.format == format);
    REQUIRE(m.mesh.cells.size() == ref.mesh.cells.size());
    REQUIRE(m.mesh.nodes.size() == ref.mesh.nodes.size());
    CHECK(m.mesh.cells == ref.mesh.cells);
    CHECK(m.mesh.faces == ref.mesh.faces);
    CHECK(m.element_tags == ref.element_tags);
    CHECK(m.node_tags == ref.node_tags);
    for (std::size_t i = 0; i < m.mesh.nodes.size(); ++i) CHECK(bit_equal(m.mesh.nodes[i], ref.mesh.nodes[i]));
  }
}

TEST_CASE("the cube's volume, surface and materials", "[gmsh]") {
  for (const char* name : {"cube-4.1-ascii.msh", "cube-4.1-binary.msh", "cube-2.2-ascii.msh", "cube-2.2-binary.msh"}) {
    INFO(name);
    const Mesh mesh = read_gmsh(kData + "/" + name);
    std::map<std::uint32_t, double> volume;
    double surface = 0;
    std::size_t boundary = 0;
    for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
      const CellGeometry& g = mesh.geometry[c];
      volume[mesh.cells[c].material] += g.volume;
      for (int f = 0; f < 4; ++f)
        if (g.boundary_faces & (1u << f)) {
          surface += g.face_area[f];
          ++boundary;
        }
    }
    // Physical volume 1 is [0, 0.5] x [0, 1]^2, 2 is [0.5, 1] x [0, 1]^2.
    REQUIRE(volume.size() == 2);
    CHECK(volume[1] == Approx(0.5).epsilon(1e-12));
    CHECK(volume[2] == Approx(0.5).epsilon(1e-12));
    CHECK(surface == Approx(6).epsilon(1e-12));
    // Euler on the closed surface: boundary triangles = 2 * (boundary nodes) - 4. All 23
    // nodes but the one inside (0.5, 0.5, 0.5...) are on the cube's surface.
    CHECK(boundary == 2 * 22 - 4);
  }
}

TEST_CASE("read_mesh picks the reader by the extension", "[gmsh]") {
  CHECK(read_mesh(kData + "/cube-2.2-binary.msh").cells.size() == 48);
  // The fuzzer's seed of Kuhn's cube of one small cube (tycho-mesh-example kuhn-cube): 6 cells.
  const std::string seeds = TYCHO_SEED_DIR;
  CHECK(read_mesh(seeds + "/kuhn-cube.smesh").cells.size() == 6);
  CHECK(input_error_text([] { read_mesh(kData + "/two-material-cube.geo"); }) ==
        kData + "/two-material-cube.geo: expected a mesh named *.smesh (Tycho2 serial mesh) or *.msh (Gmsh 4.1 or 2.2)");
  // A .msh that is not one gets the Gmsh reader's error, not the other format's.
  CHECK(input_error_text([&seeds] { read_mesh(seeds + "/kuhn-cube.smesh.msh"); }).find("kuhn-cube.smesh.msh") !=
        std::string::npos);
}
