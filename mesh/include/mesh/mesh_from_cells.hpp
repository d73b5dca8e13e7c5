// Faces from cells: the connectivity a mesh given as tetrahedra alone (hand-built meshes,
// Gmsh files, refinement) needs before it is a Mesh.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "mesh/mesh.hpp"

namespace mesh {

struct CellNodes {
  std::array<Index, 4> nodes;
  std::uint32_t material = 0;
};

// The mesh of these cells with its faces found: local face i of a cell is the triangle
// opposite its node i; faces are numbered in the order cells first reach them, and a face
// first reached by cell c from its local face i has c as its first cell. A triangle of more
// than two cells throws InputError(file, "cell N", ...) naming the third. Node indices must
// be in range (not checked here); the result still needs check_mesh and compute_geometry.
Mesh mesh_from_cells(std::vector<Vec3> nodes, const std::vector<CellNodes>& cells, const std::string& file);

// Which side meets which: side 4 c + i (local face i of cell c) shares its triangle with local
// face other_local[4 c + i] of cell other_cell[4 c + i], or is on the boundary (kBoundary).
struct SidePairs {
  std::vector<Index> other_cell;
  std::vector<std::uint8_t> other_local;
};
// The mesh of these cells with faces from pairs known already (a refinement knows them from
// its parent's faces), numbered and oriented exactly as mesh_from_cells would: the same
// mesh, without the search. The pairs must be those of the cells' triangles.
Mesh mesh_from_side_pairs(std::vector<Vec3> nodes, const std::vector<CellNodes>& cells, const SidePairs& pairs);

}  // namespace mesh
