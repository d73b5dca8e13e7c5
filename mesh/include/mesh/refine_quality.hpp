// A shape measure of tetrahedra, to show that refinement keeps the cells' quality.
#pragma once
#include "mesh/mesh.hpp"

namespace mesh {

// The volume-length ratio 6 sqrt(2) V / l_rms^3, l_rms the root mean square of the six
// edge lengths: 1 for the regular tetrahedron, towards 0 as the cell flattens (it bounds
// the radius ratio and the dihedral angles from below).
double volume_length_quality(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

// The smallest volume_length_quality over the mesh's cells (0 for a mesh without cells).
double min_cell_quality(const Mesh& mesh);

}  // namespace mesh
