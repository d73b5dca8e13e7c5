// Every malformed .msh is refused with an InputError naming the file, the place (line N in
// ASCII, byte N in binary) and what was expected. The ASCII cases damage one line of two
// hand-written files holding the same two tetrahedra (the corner tet, material 1, and its
// mirror in x = 0, material 2, sharing the face on x = 0); line numbers are those below.
#include <catch2/catch.hpp>

#include <cstring>

#include "../input_error_text.hpp"
#include "instrument/input_file.hpp"
#include "mesh/gmsh_reader.hpp"

using namespace mesh;

namespace {

const std::string kData = MESH_GMSH_DATA_DIR;

const std::string kMsh4 =
    "$MeshFormat\n"             // 1
    "4.1 0 8\n"                 // 2
    "$EndMeshFormat\n"          // 3
    "$Entities\n"               // 4
    "0 0 0 2\n"                 // 5
    "1 0 0 0 1 1 1 1 1 0\n"     // 6  volume 1 in physical group 1
    "2 -1 0 0 0 1 1 1 2 0\n"    // 7  volume 2 in physical group 2
    "$EndEntities\n"            // 8
    "$Nodes\n"                  // 9
    "1 5 1 5\n"                 // 10
    "3 1 0 5\n"                 // 11
    "1\n2\n3\n4\n5\n"           // 12-16
    "0 0 0\n"                   // 17
    "1 0 0\n"                   // 18
    "0 1 0\n"                   // 19
    "0 0 1\n"                   // 20
    "-1 0 0\n"                  // 21
    "$EndNodes\n"               // 22
    "$Elements\n"               // 23
    "2 2 1 2\n"                 // 24
    "3 1 4 1\n"                 // 25
    "1 1 2 3 4\n"               // 26
    "3 2 4 1\n"                 // 27
    "2 1 5 3 4\n"               // 28
    "$EndElements\n";           // 29

const std::string kMsh2 =
    "$MeshFormat\n"             // 1
    "2.2 0 8\n"                 // 2
    "$EndMeshFormat\n"          // 3
    "$Nodes\n"                  // 4
    "5\n"                       // 5
    "1 0 0 0\n"                 // 6
    "2 1 0 0\n"                 // 7
    "3 0 1 0\n"                 // 8
    "4 0 0 1\n"                 // 9
    "5 -1 0 0\n"                // 10
    "$EndNodes\n"               // 11
    "$Elements\n"               // 12
    "3\n"                       // 13
    "1 2 2 7 7 1 2 3\n"         // 14 a boundary triangle: read past
    "2 4 2 1 1 1 2 3 4\n"       // 15
    "3 4 2 2 2 1 5 3 4\n"       // 16
    "$EndElements\n";           // 17

// `text` with the first `from` replaced by `to` (which must be there).
std::string with(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.substr(0, at) + to + text.substr(at + from.size());
}

std::string refusal(const std::string& bytes) {
  return input_error_text([&] { check_gmsh_mesh(parse_gmsh(bytes, "bad.msh"), "bad.msh"); });
}

std::string file_bytes(const std::string& name) { return instrument::read_input_file(kData + "/" + name, "mesh"); }

}  // namespace

TEST_CASE("the unchanged texts are accepted, as the same two cells", "[gmsh][errors]") {
  CHECK(refusal(kMsh4) == "");
  CHECK(refusal(kMsh2) == "");
  const GmshMesh a = parse_gmsh(kMsh4, "a"), b = parse_gmsh(kMsh2, "b");
  CHECK(a.mesh.cells == b.mesh.cells);
  CHECK(a.mesh.nodes == b.mesh.nodes);
  CHECK(a.mesh.faces.size() == 7);
  CHECK(a.mesh.cells[0].material == 1);
  CHECK(a.mesh.cells[1].material == 2);
  // Sparse node tags (10^12 + i) take the sorted lookup, not the table: the same mesh.
  const std::string sparse =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n"
      "1000000000001 0 0 0\n1000000000002 1 0 0\n1000000000003 0 1 0\n1000000000004 0 0 1\n"
      "1000000000005 -1 0 0\n$EndNodes\n$Elements\n2\n"
      "2 4 2 1 1 1000000000001 1000000000002 1000000000003 1000000000004\n"
      "3 4 2 2 2 1000000000001 1000000000005 1000000000003 1000000000004\n$EndElements\n";
  const GmshMesh s = parse_gmsh(sparse, "sparse");
  CHECK(s.mesh.cells == b.mesh.cells);
  CHECK(s.node_tags[4] == 1000000000005u);
}

TEST_CASE("format line and section order", "[gmsh][errors]") {
  CHECK(refusal("") == "bad.msh:line 1: expected $MeshFormat, found the end of the file (truncated)");
  CHECK(refusal("$Nodes\n") == "bad.msh:line 1: expected $MeshFormat, found \"$Nodes\"");
  CHECK(refusal(with(kMsh4, "4.1 0 8", "3.0 0 8")) == "bad.msh:line 2: expected version 4.1 or 2.2, found \"3.0\"");
  CHECK(refusal(with(kMsh4, "4.1 0 8", "4.1 0 4")) ==
        "bad.msh:line 2: expected data size 8 (size_t and double of 8 bytes), found \"4\"");
  CHECK(refusal(with(kMsh4, "4.1 0 8", "4.1 2 8")) ==
        "bad.msh:line 2: expected file type 0 (ASCII) or 1 (binary), found \"2\"");
  CHECK(refusal(with(kMsh4, "$Entities\n0 0 0 2\n1 0 0 0 1 1 1 1 1 0\n2 -1 0 0 0 1 1 1 2 0\n$EndEntities\n", "")) ==
        "bad.msh:line 4: expected $Entities before $Nodes (materials are the volumes' physical groups)");
  CHECK(refusal(with(kMsh4, "$EndNodes", "$EndNodez")) == "bad.msh:line 22: expected $EndNodes, found \"$EndNodez\"");
  CHECK(refusal(kMsh4.substr(0, kMsh4.find("$Elements"))) ==
        "bad.msh:line 23: expected a $Elements section, found the end of the file");
  CHECK(refusal(with(kMsh4, "$Nodes\n", "$PartitionedEntities\n$EndPartitionedEntities\n$Nodes\n")) ==
        "bad.msh:line 9: expected an unpartitioned mesh, found $PartitionedEntities (the apps partition the mesh themselves)");
  CHECK(refusal(with(kMsh4, "$Nodes\n", "$Comments\nanything\n$EndComments\n$Nodes\n")) == "");
  CHECK(refusal(with(kMsh4, "$Nodes\n", "$Comments\nanything\n")) ==
        "bad.msh:line 9: expected $EndComments to close $Comments, found the end of the file (truncated)");
  CHECK(refusal(with(kMsh4, "$Nodes\n", "Nodes\n")) == "bad.msh:line 9: expected a section header ($Name), found \"Nodes\"");
  // Version 2.2: $Elements before $Nodes.
  const std::string elements = kMsh2.substr(kMsh2.find("$Elements"));
  const std::string swapped = kMsh2.substr(0, kMsh2.find("$Nodes")) + elements;
  CHECK(refusal(swapped) == "bad.msh:line 4: expected $Nodes before $Elements");
}

TEST_CASE("what Gmsh itself reads: blanks in the format line, a byte-order mark, underflow", "[gmsh][errors]") {
  const GmshMesh plain = parse_gmsh(kMsh4, "a");
  for (const char* line : {"4.1\t0\t8", "4.1  0  8", " 4.1 0 8 ", "4.1 \t 0 8\r"}) {
    INFO(line);
    CHECK(refusal(with(kMsh4, "4.1 0 8", line)) == "");
  }
  CHECK(refusal("\xEF\xBB\xBF" + kMsh4) == "");
  CHECK(parse_gmsh("\xEF\xBB\xBF" + kMsh2, "b").mesh.cells == plain.mesh.cells);
  // 1e-400 is below the smallest double: read as 0, as Gmsh's strtod does; 1e400 is refused.
  const GmshMesh tiny = parse_gmsh(with(kMsh4, "\n0 0 0\n", "\n1e-400 0 -1e-400\n"), "tiny");
  CHECK(tiny.mesh.nodes == plain.mesh.nodes);
  CHECK(refusal(with(kMsh4, "\n0 0 0\n", "\n1e400 0 0\n")) ==
        "bad.msh:line 17: expected a node's x (a number of magnitude at most 1.8e308), found \"1e400\"");
  // A first line that does not end within the header's length is refused there, not scanned.
  std::string zeros_quoted;
  for (int i = 0; i < 24; ++i) zeros_quoted += "\\x00";
  CHECK(refusal(std::string(1000, '\0')) == "bad.msh:line 1: expected $MeshFormat, found \"" + zeros_quoted + "...\"");
}

TEST_CASE("nodes", "[gmsh][errors]") {
  CHECK(refusal(kMsh4.substr(0, kMsh4.find("-1 0 0\n") + 4)) ==
        "bad.msh:line 21: expected a node's z, found the end of the file (truncated)");
  CHECK(refusal(kMsh4.substr(0, kMsh4.find("0 0 1\n"))) ==
        "bad.msh:line 11: expected the number of nodes in a block that the rest of the file can hold (29 bytes, at "
        "least 7 per record), found 5 (truncated?)");
  CHECK(refusal(with(kMsh4, "1 0 0\n", "1 x 0\n")) == "bad.msh:line 18: expected a node's y (a number), found \"x\"");
  CHECK(refusal(with(kMsh4, "1 0 0\n", "1 1e999 0\n")) ==
        "bad.msh:line 18: expected a node's y (a number of magnitude at most 1.8e308), found \"1e999\"");
  CHECK(refusal(with(kMsh4, "1 0 0\n", "1 nan 0\n")) ==
        "bad.msh:line 18: node 2: expected finite coordinates within +-1e30, found 1 nan 0");
  CHECK(refusal(with(kMsh4, "1 5 1 5\n", "1 6 1 6\n")) ==
        "bad.msh:line 10: expected the 6 nodes of the header of $Nodes, found 5 in its blocks");
  CHECK(refusal(with(kMsh4, "3 1 0 5\n", "3 1 0 50\n")) ==
        "bad.msh:line 11: expected at most the 5 nodes of the header of $Nodes, found 50 by this block");
  CHECK(refusal(with(kMsh4, "4\n5\n", "4\n4\n")) == "bad.msh:line 21: node tag 4 given twice in $Nodes");
  CHECK(refusal(with(kMsh4, "\n1\n2\n", "\n0\n2\n")) == "bad.msh:line 17: expected a node tag of at least 1, found 0");
  CHECK(refusal(with(kMsh4, "1 5 1 5\n", "1 5 1 5 x\n")) ==
        "bad.msh:line 10: expected the dimension of a node block's entity (a 32-bit integer), found \"x\"");
  CHECK(refusal(with(kMsh4, "1 5 1 5\n", "99999999999 5 1 5\n")).rfind(
            "bad.msh:line 10: expected the number of node blocks that the rest of the file can hold", 0) == 0);
}

TEST_CASE("elements", "[gmsh][errors]") {
  CHECK(refusal(with(kMsh4, "3 2 4 1\n", "3 2 5 1\n")) ==
        "bad.msh:line 27: expected only 4-node tetrahedra (type 4) in volumes, found type 5 (8-node hexahedron) in volume 2");
  CHECK(refusal(with(kMsh4, "3 2 4 1\n", "3 2 99 1\n")) ==
        "bad.msh:line 27: expected a Gmsh element type from 1 to 31, found 99");
  CHECK(refusal(with(kMsh4, "3 2 4 1\n", "2 2 4 1\n")) ==
        "bad.msh:line 27: expected a block of dimension 3 for element type 4 (4-node tetrahedron), found dimension 2");
  CHECK(refusal(with(kMsh4, "2 1 5 3 4\n", "2 1 9 3 4\n")) ==
        "bad.msh:line 28: element 2: its node tag 9 is not among the 5 nodes of $Nodes");
  CHECK(refusal(with(kMsh4, "2 -1 0 0 0 1 1 1 2 0\n", "2 -1 0 0 0 1 1 0 0\n")) ==
        "bad.msh:line 27: volume 2 is in 0 physical groups: expected one, whose tag is its tetrahedra's material");
  CHECK(refusal(with(kMsh4, "2 -1 0 0 0 1 1 1 2 0\n", "3 -1 0 0 0 1 1 1 2 0\n")) ==
        "bad.msh:line 27: expected the volume of a tetrahedron block in $Entities, volume 2 is not");
  CHECK(refusal(with(kMsh4, "2 -1 0 0 0 1 1 1 2 0\n", "2 -1 0 0 0 1 1 1 -2 0\n")) ==
        "bad.msh:line 27: volume 2: expected a physical tag of at least 1, found -2");
  CHECK(refusal(with(kMsh4, "2 2 1 2\n", "2 3 1 3\n")) ==
        "bad.msh:line 24: expected the 3 elements of the header of $Elements, found 2 in its blocks");
  CHECK(refusal(kMsh4.substr(0, kMsh4.size() - 4)) == "bad.msh:line 29: expected $EndElements, found \"$EndEleme\"");
  // Version 2.2.
  CHECK(refusal(with(kMsh2, "2 4 2 1 1 1 2 3 4\n", "2 4 0 1 2 3 4\n")) ==
        "bad.msh:line 15: element 2: expected a tetrahedron's first tag to be its physical volume (at least 1), its "
        "material; found 0");
  CHECK(refusal(with(kMsh2, "3 4 2 2 2 1 5 3 4\n", "3 6 2 2 2 1 5 3 4 2 3\n")) ==
        "bad.msh:line 16: element 3: expected only 4-node tetrahedra (type 4) in volumes, found type 6 (6-node prism)");
  CHECK(refusal(with(kMsh2, "3 4 2 2 2 1 5 3 4\n", "3 4 2 2 2 1 6 3 4\n")) ==
        "bad.msh:line 16: element 3: its node tag 6 is not among the 5 nodes of $Nodes");
  CHECK(refusal(with(kMsh2, "3\n1 2", "4\n1 2")) == "bad.msh:line 17: expected an element tag (an unsigned integer), found \"$EndElements\"");
}

TEST_CASE("the mesh checks name the element and node tags", "[gmsh][errors]") {
  // Node 5 moved onto the plane x = 0 of nodes 1, 3, 4: the second cell is flat.
  CHECK(refusal(with(kMsh4, "-1 0 0\n", "0 0.5 0.5\n")).rfind("bad.msh:cell 1 (element 2): ", 0) == 0);
  // A third tetrahedron on the shared triangle (1, 3, 4): non-manifold.
  std::string three = with(kMsh2, "5 -1 0 0\n", "5 -1 0 0\n6 1 1 1\n");
  three = with(three, "$Nodes\n5\n", "$Nodes\n6\n");
  three = with(three, "$Elements\n3\n", "$Elements\n4\n");
  three = with(three, "$EndElements", "4 4 2 1 1 1 3 4 6\n$EndElements");
  CHECK(refusal(three) == "bad.msh:cell 2 (element 4): non-manifold: the triangle of nodes 0, 2, 3 is already shared by "
                          "cells 0 and 1");
}

TEST_CASE("binary files: byte offsets, and every truncation refused", "[gmsh][errors]") {
  std::string b4 = file_bytes("cube-4.1-binary.msh");
  SECTION("the binary int 1 in the other byte order") {
    const std::size_t at = b4.find("\x01\x00\x00\x00", 0, 4);
    REQUIRE(at == 20);  // after "$MeshFormat\n4.1 1 8\n"
    std::memcpy(&b4[at], "\x00\x00\x00\x01", 4);
    CHECK(refusal(b4) == "bad.msh:byte 20: expected the integer 1 in binary (a file of this machine's byte order), "
                         "found 16777216");
  }
  SECTION("cut in the binary int 1") {
    CHECK(refusal(b4.substr(0, 22)) ==
          "bad.msh:byte 20: expected the integer 1 in binary (4 bytes), found the end of the file after 2 (truncated)");
  }
  SECTION("cut in the last element: the last block (24 tetrahedra) does not fit") {
    const std::string why = refusal(b4.substr(0, b4.find("\n$EndElements") - 3));
    CHECK(why.rfind("bad.msh:byte ", 0) == 0);
    CHECK(why.find(": expected the number of elements in a block that the rest of the file can hold (") !=
          std::string::npos);
    CHECK(why.find("at least 40 per record), found 24 (truncated?)") != std::string::npos);
  }
  SECTION("every prefix of each of the four files is refused, never read nor crashed on") {
    for (const char* name : {"cube-4.1-ascii.msh", "cube-4.1-binary.msh", "cube-2.2-ascii.msh", "cube-2.2-binary.msh"}) {
      const std::string bytes = file_bytes(name);
      REQUIRE(bytes.back() == '\n');
      std::size_t refused = 0;
      for (std::size_t n = 0; n + 1 < bytes.size(); ++n) refused += refusal(bytes.substr(0, n)) != "";
      INFO(name);
      CHECK(refused == bytes.size() - 1);
    }
  }
}
