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

// check_mesh for a mesh whose faces mesh_from_cells found from cells of distinct nodes (a
// refinement of a checked mesh): those faces are the cells' triangles, each once, listing
// their cells, by construction, so only what construction leaves open is checked: the
// coordinates, each cell's distinct nodes and volume, and the sides of interior faces. On
// such a mesh it refuses what check_mesh refuses, with the same error, in half the time.
void check_mesh_from_cells(const Mesh& mesh, const std::string& file);

// check_mesh_from_cells for refine_uniform's children of a checked parent whose faces it paired
// from the parent's: each cell's volume against its longest edge, and only that. A child's
// corners are distinct parent corners and midpoints; a midpoint lies within its ends'
// coordinates; a child's sides face the child across the parent's faces (which the parent's
// check put on opposite sides) or across planes inside the parent; with each child's volume
// above 1e-12 x its longest edge cubed (which the parent's does not imply: the octahedron's
// children may be flatter by up to 8), those signs are far above round-off. Same errors.
void check_refined_cells(const Mesh& mesh, const std::string& file);

}  // namespace mesh
