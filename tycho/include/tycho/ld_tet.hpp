// The linear discontinuous (LD) element on a tetrahedron: what the cell solve needs of a
// cell, computed once per cell so the sweep's solve reads it without allocating.
//
// The basis is the 4 barycentric functions b_i (b_i = 1 at the cell's node i, 0 at the
// others; cell-local node i is mesh.cells[c].nodes[i]). Their integrals are closed forms:
//   mass        M_ij   = int_cell b_i b_j      = V/20 (1 + delta_ij)
//   face mass   M^f_ij = int_face b_i b_j      = A_f/12 (1 + delta_ij), i, j on face f
//   gradients   grad b_i = -A_f n_f / (3 V), f the face opposite node i
// so the per-cell record keeps V, A_f n_f and which node each face is opposite, and the
// matrices are built from them. The gradients are not stored: the sweep streams every cell's
// record once per direction, and on meshes past the caches its time is the record's load;
// 120 B in two cache lines instead of 216 B in four.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "tycho/mesh_types.hpp"

namespace tycho {

using Matrix4 = std::array<std::array<double, 4>, 4>;
using Matrix3 = std::array<std::array<double, 3>, 3>;

struct alignas(64) LdTet {
  double volume = 0;
  std::array<Vec3, 4> area_normal;  // A_f n_f per cell-local face f (outward)
  // Cell-local face f's 3 nodes as cell-local node indices, in the order of the face's own
  // nodes (mesh.faces[..].nodes): the order in which inflow and outflow values are exchanged.
  std::array<std::array<std::uint8_t, 3>, 4> face_nodes{};
  // Per cell-local node j: the face off it (a permutation). Kept this way round so the solve
  // reads the streaming term's column j as flow[face_opposite[j]]: written by node through
  // the other permutation, four 8-byte stores then 16-byte loads, it stalled on store
  // forwarding (~a fifth of the sweep's solve samples, perf, cube-10717).
  std::array<std::uint8_t, 4> face_opposite{};
};

// grad b_i of cell-local node i: -A_f n_f / (3 V), f the face opposite i.
Vec3 ld_gradient(const LdTet& t, int node);

// One record per cell. Precondition: mesh.geometry computed (compute_geometry).
std::vector<LdTet> ld_tets(const Mesh& mesh);
// The record of cell c alone.
LdTet ld_tet(const Mesh& mesh, Index c);

Matrix4 ld_mass_matrix(const LdTet& t);
// The 3x3 face mass matrix of cell-local face f, rows and columns in face_nodes[f] order.
Matrix3 ld_face_mass_matrix(const LdTet& t, int f);
// K_ij = int_cell b_i (Omega . grad b_j) = V/4 Omega . grad b_j (the streaming term).
Matrix4 ld_streaming_matrix(const LdTet& t, const Vec3& omega);

}  // namespace tycho
