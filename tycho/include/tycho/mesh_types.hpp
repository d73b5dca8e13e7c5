// The mesh library's types (mesh/mesh.hpp) as tycho's own: the sweep, the models and the
// reports name cells, faces, nodes and indices on nearly every line, so they are spelled
// unqualified in namespace tycho. Functions of the mesh library are called as mesh::f.
#pragma once
#include "mesh/mesh.hpp"

namespace tycho {

using mesh::Cell;
using mesh::CellGeometry;
using mesh::Face;
using mesh::Index;
using mesh::kBoundary;
using mesh::Mesh;
using mesh::Vec3;

}  // namespace tycho
