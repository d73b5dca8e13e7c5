// Geometry of tetrahedra: volumes, outward unit normals and areas of the faces.
#pragma once
#include "mesh/mesh.hpp"

namespace mesh {

// Six times the signed volume of the tetrahedron (a, b, c, d): positive when d lies on the
// side of the triangle (a, b, c) that its right-hand normal points to.
double six_signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

// The mean of the cell's four nodes.
Vec3 cell_centroid(const Mesh& mesh, Index cell);
// The same for a cell given by its corners (the same bits as cell_centroid of that cell).
Vec3 corners_centroid(const std::vector<Vec3>& nodes, const std::array<Index, 4>& corners);

// The cell's node that is not one of the face's three (precondition: three are).
Index node_opposite(const Cell& cell, const Face& face);

// Fills mesh.geometry, one entry per cell. Precondition: check_mesh passed (so every cell
// has positive volume and each face's nodes are three of its cell's four).
void compute_geometry(Mesh& mesh);

}  // namespace mesh
