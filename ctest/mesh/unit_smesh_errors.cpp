// Every malformed serial mesh is refused with an InputError naming the file, the place
// (header, cell N, face N, node N) and what was expected. Each case damages one field of the
// two-tet mesh's bytes (2 cells, 7 faces, 5 nodes; face 1 is the shared one) and parses
// them with the checks, as read_smesh does.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "../input_error_text.hpp"
#include "../scratch_dir.hpp"
#include "instrument/output_file.hpp"
#include "smesh_bytes.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/smesh_reader.hpp"

using namespace mesh;

namespace {

const std::string kFile = "bad.smesh";

SmeshBytes two_tets() { return SmeshBytes(format_smesh(two_tet_mesh())); }

// The message of the InputError that parsing (then checking) the bytes throws.
std::string refusal(const std::string& bytes) {
  return input_error_text([&] { check_mesh(parse_smesh(bytes, kFile), kFile); });
}

}  // namespace

TEST_CASE("the unchanged bytes are accepted (so every case below fails for its own damage)", "[smesh][errors]") {
  CHECK(refusal(two_tets().bytes) == "");
}

TEST_CASE("header: name, version, size", "[smesh][errors]") {
  SmeshBytes m = two_tets();
  SECTION("a wrong format name") {
    m.bytes[0] = 'X';
    CHECK(refusal(m.bytes) ==
          "bad.smesh:header: expected the format name \"Tycho 2 Serial Mesh\" zero-padded to 32 bytes, found "
          "\"Xycho 2 Serial Mesh\\x00\\x00\\x00\\x00\\x00...\"");
  }
  SECTION("the name's padding not zero") {
    m.bytes[31] = ' ';
    CHECK(refusal(m.bytes).rfind("bad.smesh:header: expected the format name \"Tycho 2 Serial Mesh\" zero-padded", 0) == 0);
  }
  SECTION("version 3") {
    m.set(32, 3);
    CHECK(refusal(m.bytes) == "bad.smesh:header: expected version 2 of the serial mesh format, found 3");
  }
  SECTION("shorter than the header") {
    CHECK(refusal(m.bytes.substr(0, 63)) ==
          "bad.smesh:header: a Tycho2 serial mesh starts with a 64-byte header; the file has 63 bytes");
    CHECK(refusal("") == "bad.smesh:header: a Tycho2 serial mesh starts with a 64-byte header; the file has 0 bytes");
  }
  SECTION("truncated by one byte") {
    m.bytes.pop_back();
    CHECK(refusal(m.bytes) == "bad.smesh:header: the counts (2 cells, 7 faces, 5 nodes) need 64 + 72*C + 40*F + 24*N = "
                              "608 bytes; the file has 607 (truncated)");
  }
  SECTION("a trailing byte") {
    m.bytes.push_back('\0');
    CHECK(refusal(m.bytes) == "bad.smesh:header: the counts (2 cells, 7 faces, 5 nodes) need 64 + 72*C + 40*F + 24*N = "
                              "608 bytes; the file has 609 (trailing bytes)");
  }
  SECTION("counts whose size overflows 64 bits (2^61 cells: 72 * 2^61 > 2^64)") {
    m.set(40, std::uint64_t{1} << 61);
    CHECK(refusal(m.bytes) == "bad.smesh:header: the counts (2305843009213693952 cells, 7 faces, 5 nodes) need more "
                              "than 2^64 bytes; the file has 608");
  }
  SECTION("counts whose sum overflows (each product fits)") {
    m.set(40, UINT64_MAX / 72);
    m.set(48, UINT64_MAX / 40);
    CHECK(refusal(m.bytes).find("need more than 2^64 bytes; the file has 608") != std::string::npos);
  }
  SECTION("no cells: a header alone") {
    std::string header = m.bytes.substr(0, 64);
    SmeshBytes h(header);
    h.set(40, 0);
    h.set(48, 0);
    h.set(56, 0);
    CHECK(refusal(h.bytes) == "bad.smesh:header: expected at least 1 cell, 4 faces and 4 nodes and at most "
                              "2147483647 of each; found 0 cells, 0 faces, 0 nodes");
  }
}

TEST_CASE("cell records: indices in range", "[smesh][errors]") {
  SmeshBytes m = two_tets();
  SECTION("a face index = the face count") {
    m.set(m.cell(1, 2), 7);
    CHECK(refusal(m.bytes) == "bad.smesh:cell 1: its 3rd face index must be below 7, found 7");
  }
  SECTION("a node index far out") {
    m.set(m.cell(0, 7), UINT64_MAX);
    CHECK(refusal(m.bytes) == "bad.smesh:cell 0: its 4th node index must be below 5, found 18446744073709551615");
  }
  SECTION("a material of 2^31") {
    m.set(m.cell(1, 8), std::uint64_t{1} << 31);
    CHECK(refusal(m.bytes) == "bad.smesh:cell 1: its material index must be below 2^31, found 2147483648");
  }
}

TEST_CASE("face records: indices in range", "[smesh][errors]") {
  SmeshBytes m = two_tets();
  SECTION("the first cell is the boundary marker") {
    m.set(m.face(4, 0), UINT64_MAX);
    CHECK(refusal(m.bytes) == "bad.smesh:face 4: its 1st cell index must be below 2, found 18446744073709551615");
  }
  SECTION("the second cell out of range") {
    m.set(m.face(1, 1), 2);
    CHECK(refusal(m.bytes) == "bad.smesh:face 1: its 2nd cell index must be below 2, found 2");
  }
  SECTION("a node out of range") {
    m.set(m.face(6, 4), 5);
    CHECK(refusal(m.bytes) == "bad.smesh:face 6: its 3rd node index must be below 5, found 5");
  }
}

TEST_CASE("faces and cells that do not match", "[smesh][errors]") {
  SmeshBytes m = two_tets();
  SECTION("a face naming a cell that does not list it") {
    m.set(m.face(4, 0), 0);  // face 4 is cell 1's
    CHECK(refusal(m.bytes) == "bad.smesh:face 4: its cell 0 must list it among its faces, found 0, 1, 2, 3");
  }
  SECTION("the shared face made a boundary face: cell 1 still lists it") {
    m.set(m.face(1, 1), UINT64_MAX);
    CHECK(refusal(m.bytes) ==
          "bad.smesh:cell 1: its 2nd face 1 must list this cell as one of its two cells, found cells 0 and the boundary");
  }
  SECTION("an interior face joining a cell to itself") {
    m.set(m.face(1, 1), 0);
    CHECK(refusal(m.bytes) == "bad.smesh:face 1: an interior face must join two different cells, found cell 0 twice");
  }
  SECTION("a face's node not one of its cell's") {
    m.set(m.face(0, 2), 4);  // face 0 = nodes (1, 2, 3) of cell 0; node 4 is cell 1's
    CHECK(refusal(m.bytes) == "bad.smesh:cell 0: its 1st face 0 has node 4, expected 3 of the cell's nodes 0, 1, 2, 3");
  }
  SECTION("a face with a repeated node") {
    m.set(m.face(5, 3), m.get(m.face(5, 2)));
    CHECK(refusal(m.bytes).rfind("bad.smesh:face 5: its 3 nodes must be distinct, found ", 0) == 0);
  }
}

TEST_CASE("degenerate cells, non-finite nodes, overlapping cells", "[smesh][errors]") {
  SmeshBytes m = two_tets();
  SECTION("a cell with a repeated node") {
    m.set(m.cell(0, 7), 2);
    CHECK(refusal(m.bytes) == "bad.smesh:cell 0: degenerate: its 4 nodes must be distinct, found 0, 1, 2, 2");
  }
  SECTION("a flat cell: node 3 moved into the plane z = 0") {
    m.set_double(m.node(3, 2), 0.0);
    m.set_double(m.node(3, 0), 0.25);
    m.set_double(m.node(3, 1), 0.25);
    // Cell 0 is (0,0,0), (1,0,0), (0,1,0), (0.25,0.25,0): volume 0, longest edge sqrt(2).
    CHECK(refusal(m.bytes) == "bad.smesh:cell 0: degenerate: its volume 0.000000 must exceed 1e-12 x (longest edge "
                              "1.414214)^3");
  }
  SECTION("a nearly flat cell: volume 1e-13, under 1e-12 x its longest edge cubed") {
    m.set_double(m.node(3, 2), 6e-13);  // cell 0's volume = 6e-13 / 6 = 1e-13; longest edge sqrt(2)
    CHECK(refusal(m.bytes).rfind("bad.smesh:cell 0: degenerate: its volume 0.000000 must exceed", 0) == 0);
  }
  SECTION("a NaN coordinate") {
    m.set_double(m.node(2, 1), std::numeric_limits<double>::quiet_NaN());
    CHECK(refusal(m.bytes) ==
          "bad.smesh:node 2: coordinates must be finite and within +-1e30, found (0.000000, nan, 0.000000)");
  }
  SECTION("a coordinate of 1e31") {
    m.set_double(m.node(4, 0), 1e31);
    CHECK(refusal(m.bytes).rfind("bad.smesh:node 4: coordinates must be finite and within +-1e30", 0) == 0);
  }
  SECTION("both cells on the same side of their shared face") {
    m.set_double(m.node(4, 0), 0.5);  // node 4 from (-1,0,0) to (0.5,0,0): cell 1 inside cell 0's side
    CHECK(refusal(m.bytes) == "bad.smesh:face 1: its cells 0 and 1 must lie on opposite sides of it, found both on one "
                              "side (overlapping cells)");
  }
}

TEST_CASE("non-manifold: the shared triangle as two faces, one per cell", "[smesh][errors]") {
  Mesh mesh = two_tet_mesh();
  mesh.faces[1].cells = {0, kBoundary};
  mesh.faces.push_back({{1, kBoundary}, mesh.faces[1].nodes});  // face 7
  mesh.cells[1].faces[1] = 7;
  CHECK(refusal(format_smesh(mesh)) ==
        "bad.smesh:face 7: non-manifold: the same triangle (nodes 0, 2, 3) as face 1; each triangle must be one face "
        "of at most two cells");
}

TEST_CASE("read_smesh names the path, and refuses what is not a regular file", "[smesh][errors]") {
  ScratchDir dir("mesh_smesh_errors");
  const std::string missing = (dir.path / "none.smesh").string();
  CHECK(input_error_text([&] { (void)read_smesh(missing); }).rfind(missing + ": ", 0) == 0);
  CHECK(input_error_text([&] { (void)read_smesh(dir.path.string()); }).find("directory") != std::string::npos);
  SmeshBytes m = two_tets();
  m.set(m.cell(1, 2), 9);
  const std::string path = (dir.path / "bad.smesh").string();
  write_smesh(two_tet_mesh(), path);
  CHECK(input_error_text([&] { (void)read_smesh(path); }) == "");
  instrument::write_text_output(path, "test", m.bytes);
  CHECK(input_error_text([&] { (void)read_smesh(path); }) == path + ":cell 1: its 3rd face index must be below 7, found 9");
}
