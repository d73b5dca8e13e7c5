// Gmsh meshes (.msh), versions 4.1 and 2.2, ASCII and binary: tetrahedra (element type 4)
// in volumes, each with the tag of its physical volume as its material. Points, lines and
// triangles (boundary entities) are skipped; any other volume element, a volume with no
// physical group (or more than one), a node tag not among the nodes, a truncated file and
// sections out of order are refused with an InputError naming the file, the place ("line N"
// in ASCII, "byte N" in binary) and what was expected.
//
// Sections: $MeshFormat first; $Entities (4.1) before $Nodes, $Nodes before $Elements, each
// once; $PhysicalNames, $Periodic, $NodeData and any other section skipped. A partitioned
// mesh ($PartitionedEntities) is refused. Only the nodes that tetrahedra use are kept, in
// the file's order; cells are the tetrahedra in the file's order.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mesh/mesh.hpp"

namespace mesh {

struct GmshFormat {
  int major = 0, minor = 0;  // 4.1 or 2.2
  bool binary = false;
  friend bool operator==(const GmshFormat&, const GmshFormat&) = default;
};

struct GmshMesh {
  Mesh mesh;  // nodes, cells and faces; no geometry yet
  GmshFormat format;
  std::vector<std::uint64_t> element_tags;  // per cell, Gmsh's element tag
  std::vector<std::uint64_t> node_tags;     // per node, Gmsh's node tag
};

// The mesh in `bytes` with its faces (mesh_from_cells); not checked (check_gmsh_mesh) and
// no geometry. `name` names the file in errors.
GmshMesh parse_gmsh(std::string_view bytes, const std::string& name);

// check_mesh, its "cell N" and "node N" completed with Gmsh's tag ("cell 3 (element 17)").
void check_gmsh_mesh(const GmshMesh& gmsh, const std::string& name);

// Reads, parses, checks and computes the geometry: a mesh ready to sweep.
Mesh read_gmsh(const std::string& path);

}  // namespace mesh
