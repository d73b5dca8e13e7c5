// Any mesh the apps read, by its file name: .smesh (Tycho2 serial mesh, smesh_reader.hpp) or
// .msh (Gmsh 4.1 or 2.2, ASCII or binary, gmsh_reader.hpp). Checked, with its geometry.
#pragma once
#include <string>

#include "mesh/mesh.hpp"

namespace mesh {

// Throws InputError for another extension, and whatever the format's reader throws.
Mesh read_mesh(const std::string& path);

}  // namespace mesh
