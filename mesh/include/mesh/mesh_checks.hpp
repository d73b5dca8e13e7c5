// Validation of a mesh as read: topology (cells and faces agree, no non-manifold or
// duplicated faces) and geometry (finite coordinates, no degenerate cells). The first
// problem found is thrown as instrument::InputError(file, "cell N" / "face N" / "node N",
// what was expected and what was found).
#pragma once
#include <string>

#include "mesh/mesh.hpp"

namespace mesh {

// Coordinates farther than this from the origin are refused: the volume test cubes edge
// lengths, which must stay finite.
inline constexpr double kMaxCoordinate = 1e30;
// A cell is degenerate when its volume is at most this times its longest edge cubed (a
// regular tetrahedron has 0.118).
inline constexpr double kDegenerateVolumeRatio = 1e-12;

// Precondition: every index is in range (the readers check that as they read).
void check_mesh(const Mesh& mesh, const std::string& file);

}  // namespace mesh
