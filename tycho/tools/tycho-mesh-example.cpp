// tycho-mesh-example: writes one of the small meshes built in code (mesh_examples.hpp) as a
// Tycho2 serial mesh; the fuzzer's seeds in fuzz/corpus/tycho_mesh/ are made with it.
//
//   tycho-mesh-example corner-tet|two-tets|kuhn-cube OUT.smesh
#include <cstdio>
#include <exception>
#include <string>

#include "mesh/mesh_examples.hpp"
#include "mesh/smesh_reader.hpp"

int main(int argc, char** argv) {
  const char* usage = "usage: tycho-mesh-example corner-tet|two-tets|kuhn-cube OUT.smesh";
  if (argc != 3) {
    std::fprintf(stderr, "tycho-mesh-example: error: expected a mesh name and an output file; %s\n", usage);
    return 1;
  }
  const std::string name = argv[1];
  try {
    mesh::Mesh mesh;
    if (name == "corner-tet")
      mesh = mesh::corner_tet_mesh();
    else if (name == "two-tets")
      mesh = mesh::two_tet_mesh();
    else if (name == "kuhn-cube")
      mesh = mesh::kuhn_cube_mesh(1, 1.0);
    else {
      std::fprintf(stderr, "tycho-mesh-example: error: unknown mesh \"%s\"; %s\n", name.c_str(), usage);
      return 1;
    }
    mesh::write_smesh(mesh, argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tycho-mesh-example: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
