// Verification of the transport discretisation by a manufactured solution: a chosen smooth
// angular flux psi_m(x, Omega), the source that makes it the exact solution of
//   Omega . grad psi + sigma_t psi = q,   q = Omega . grad psi_m + sigma_t psi_m
// (a pure absorber: no scattering, so one sweep per direction is the whole solve), and the
// L2 error of the swept solution. Serial: every direction is swept over the whole mesh in
// direction_order's order, cell by cell with solve_cell_ld or solve_cell_step, the inflow
// read from the upwind cell in face node order and, on the boundary, psi_m at the face's
// nodes. The faces' normals are the canonical ones (face_area_normals, negated for the
// second cell) as in the parallel sweep's plan.
//
// psi_m = angular(Omega) spatial(x): a product, so the spatial work (source moments, the
// part of the error no linear function can capture) is done once per cell, not per angle.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

#include "tycho/mesh_types.hpp"
#include "tycho/problem.hpp"
#include "tycho/quadrature.hpp"

namespace tycho {

struct ManufacturedSolution {
  std::string name;
  std::function<double(const Vec3& omega)> angular;
  std::function<double(const Vec3& x)> spatial;
  std::function<Vec3(const Vec3& x)> spatial_gradient;
};

// (1 + Omega_x / 2) sin(pi x / L) sin(pi y / L) sin(pi z / L): zero on the whole boundary of
// the cube [0, L]^3, so the vacuum inflow is exact; the angular factor makes the streaming
// term differ from direction to direction.
ManufacturedSolution sine_cube_solution(double side);

// a + b . x, the same in every direction: LD reproduces it to round-off when the inflow on
// the boundary is given (psi_m at the boundary face's nodes), the step scheme does not.
ManufacturedSolution linear_solution(double a, const Vec3& b);

// How the source enters the cell solve (both take nodal values q_i of a linear function):
//   projected  the L2 projection of q onto the cell's linear basis (M^-1 int b_i q): what
//              second order needs; its cell mean is q's exact cell average;
//   nodal      q at the cell's nodes (interpolation).
enum class SourceModel { projected, nodal };

struct MmsErrors {
  double psi_l2 = 0;       // sqrt(sum_d w_d ||psi_h,d - psi_m,d||^2), L2 over the mesh
  double phi_l2 = 0;       // ||phi_h - phi_m||, phi = sum_d w_d psi_d (phi_m in the same quadrature)
  double psi_norm = 0;     // sqrt(sum_d w_d ||psi_m,d||^2), for a relative error
  double phi_norm = 0;     // ||phi_m||
  std::size_t lagged = 0;  // faces lagged over all directions (cycles broken)
  int passes = 1;          // the most sweeps a direction took (> 1 only with lagged faces)
};

// Sweeps every direction of `quadrature` on `mesh` (checked, geometry computed) for psi_m
// with total cross section sigma_t, and returns the errors. A direction with lagged faces is
// swept again, the lagged inflow taken from the previous pass, until no nodal value changes
// by more than 1e-14 of the largest; throws std::runtime_error after 200 passes.
MmsErrors manufactured_errors(const Mesh& mesh, const Quadrature& quadrature, const ManufacturedSolution& solution,
                              double sigma_t, Scheme scheme, SourceModel source);

}  // namespace tycho
