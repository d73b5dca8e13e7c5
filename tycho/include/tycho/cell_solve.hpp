// One cell, one direction, one group: the transport equation Omega . grad psi + sigma_t psi = q
// on a tetrahedron, given the upstream values on the cell's inflow faces (Omega . n < 0).
// The sweep calls these once per cell-angle(-group): no allocation, the per-cell record
// (LdTet, ld_tet.hpp) computed once.
//
// Values on a face are exchanged in the face's own node order (LdTet::face_nodes), so the
// two cells of a face agree on them: the downstream cell reads the upstream cell's outflow
// nodal values at face_nodes of its own side.
#pragma once
#include <array>

#include "tycho/ld_tet.hpp"

namespace tycho {

using NodeValues = std::array<double, 4>;                  // per cell-local node
using FaceValues = std::array<std::array<double, 3>, 4>;  // per cell-local face, face node order

// Linear discontinuous Galerkin: psi = sum_j psi_j b_j, tested with each b_i, upwind on the
// inflow faces:
//   sum_j [K_ij + sigma_t M_ij + sum_{f in} |Omega.n_f| M^f_ij] psi_j
//     = sum_j M_ij q_j + sum_{f in} |Omega.n_f| sum_j M^f_ij psi^up_j
// (K streaming, M mass, M^f face mass: ld_tet.hpp). q holds nodal values of the isotropic
// source; inflow[f] is read only for inflow faces. out: the 4 nodal values of psi. The 4x4
// system is solved by Gaussian elimination with partial pivoting.
void solve_cell_ld(const LdTet& cell, const Vec3& omega, double sigma_t, const NodeValues& q,
                   const FaceValues& inflow, NodeValues& out);

// The step scheme: psi constant on the cell, balanced with the inflow faces' averages and the
// source's cell average (q nodal, as for LD):
//   psi (sigma_t V + sum_{f out} Omega.n_f A_f) = V mean(q) + sum_{f in} |Omega.n_f| A_f mean(inflow[f])
// out holds psi at all 4 nodes, so downstream cells read it as they read LD's values.
void solve_cell_step(const LdTet& cell, const Vec3& omega, double sigma_t, const NodeValues& q,
                     const FaceValues& inflow, NodeValues& out);

}  // namespace tycho

namespace tycho {

// solve_cell_ld for all groups of one cell-angle task at once, as the sweep calls it: the
// streaming and inflow-face terms do not depend on the group, so they are built once and
// each group adds sigma_t,g M and solves. inflow: [4 faces][groups][3] in face node order
// (read for inflow faces only); q and psi: [groups][4]. Gaussian elimination without
// pivoting: the LD matrix has a positive definite symmetric part (A + A^T = 2 sigma_t M +
// sum_f |Omega.n_f| M^f), so no pivot is zero and elimination is stable without row swaps.
// Agrees with solve_cell_ld to round-off, not bit for bit (that one pivots).
void solve_cell_ld_groups(const LdTet& cell, const Vec3& omega, int groups, const double* sigma_t, const double* q,
                          const double* inflow, double* psi);

}  // namespace tycho
