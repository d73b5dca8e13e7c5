// read_mesh (mesh_reader.hpp): the reader chosen by the extension, never by sniffing, so a
// damaged file gets the error of the format it claims to be.
#include "mesh/mesh_reader.hpp"

#include "instrument/error.hpp"
#include "mesh/gmsh_reader.hpp"
#include "mesh/smesh_reader.hpp"

namespace mesh {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Mesh read_mesh(const std::string& path) {
  if (ends_with(path, ".smesh")) return read_smesh(path);
  if (ends_with(path, ".msh")) return read_gmsh(path);
  throw instrument::InputError(path, "",
                               "expected a mesh named *.smesh (Tycho2 serial mesh) or *.msh (Gmsh 4.1 or 2.2)");
}

}  // namespace mesh
